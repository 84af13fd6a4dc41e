package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * An input file served from the bytes fetched ahead; once they are released, from the object store
 * again ({@code direct}).
 */
final class FetchedInputFile implements ReleasableInputFile {
  private final String location;
  private final FetchedObject object;
  private final InputFile direct;
  private final Runnable release;

  FetchedInputFile(String location, FetchedObject object, InputFile direct, Runnable release) {
    this.location = requireNonNull(location, "location is null");
    this.object = requireNonNull(object, "object is null");
    this.direct = requireNonNull(direct, "direct is null");
    this.release = requireNonNull(release, "release is null");
  }

  @Override
  public long getLength() {
    return object.length();
  }

  @Override
  public SeekableInputStream newStream() {
    return object.isReleased() ? direct.newStream() : object.newStream();
  }

  @Override
  public String location() {
    return location;
  }

  @Override
  public boolean exists() {
    return true;
  }

  @Override
  public void release() {
    release.run();
  }
}
