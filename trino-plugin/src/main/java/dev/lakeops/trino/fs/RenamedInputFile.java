package dev.lakeops.trino.fs;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/** An input file read through another location (the resolved local path), reporting its own. */
record RenamedInputFile(String location, InputFile delegate) implements InputFile {
  RenamedInputFile {
    requireNonNull(location, "location is null");
    requireNonNull(delegate, "delegate is null");
  }

  @Override
  public long getLength() {
    return delegate.getLength();
  }

  @Override
  public SeekableInputStream newStream() {
    return delegate.newStream();
  }

  @Override
  public boolean exists() {
    return delegate.exists();
  }
}
