package dev.lakeops.trino.fs;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/** An output file written through another location (the resolved local path), reporting its own. */
record RenamedOutputFile(String location, OutputFile delegate) implements OutputFile {
  RenamedOutputFile {
    requireNonNull(location, "location is null");
    requireNonNull(delegate, "delegate is null");
  }

  @Override
  public PositionOutputStream create() {
    return delegate.create();
  }

  @Override
  public PositionOutputStream createOrOverwrite() {
    return delegate.createOrOverwrite();
  }

  @Override
  public InputFile toInputFile() {
    return new RenamedInputFile(location, delegate.toInputFile());
  }
}
