package dev.lakeops.rewrite.arrow;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.parquet.io.OutputFile;

/**
 * Lets parquet-java write through an Iceberg {@code OutputFile}, and so through the table's FileIO.
 */
final class IcebergOutputFileAdapter implements OutputFile {
  private final org.apache.iceberg.io.OutputFile file;

  IcebergOutputFileAdapter(org.apache.iceberg.io.OutputFile file) {
    this.file = requireNonNull(file, "file is null");
  }

  @Override
  public org.apache.parquet.io.PositionOutputStream create(long blockSizeHint) {
    return wrap(file.create());
  }

  @Override
  public org.apache.parquet.io.PositionOutputStream createOrOverwrite(long blockSizeHint) {
    return wrap(file.createOrOverwrite());
  }

  @Override
  public boolean supportsBlockSize() {
    return false;
  }

  @Override
  public long defaultBlockSize() {
    return 0;
  }

  @Override
  public String getPath() {
    return file.location();
  }

  private static org.apache.parquet.io.PositionOutputStream wrap(PositionOutputStream stream) {
    return new org.apache.parquet.io.PositionOutputStream() {
      @Override
      public long getPos() throws IOException {
        return stream.getPos();
      }

      @Override
      public void write(int value) throws IOException {
        stream.write(value);
      }

      @Override
      public void write(byte[] bytes, int offset, int length) throws IOException {
        stream.write(bytes, offset, length);
      }

      @Override
      public void flush() throws IOException {
        stream.flush();
      }

      @Override
      public void close() throws IOException {
        stream.close();
      }
    };
  }
}
