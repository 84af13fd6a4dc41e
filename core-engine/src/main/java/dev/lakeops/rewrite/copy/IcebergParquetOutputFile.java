package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.hadoop.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} over an Iceberg one, writing through a buffer. */
final class IcebergParquetOutputFile implements OutputFile {
  private static final int BUFFER_BYTES = 1 << 20;

  private final org.apache.iceberg.io.OutputFile file;
  private BufferedPositionOutputStream stream;

  IcebergParquetOutputFile(org.apache.iceberg.io.OutputFile file) {
    this.file = requireNonNull(file, "file is null");
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    stream = new BufferedPositionOutputStream(open(false), BUFFER_BYTES);
    return stream;
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    stream = new BufferedPositionOutputStream(open(true), BUFFER_BYTES);
    return stream;
  }

  /**
   * A Hadoop file is created with a large write buffer: Iceberg's {@code HadoopOutputFile} takes
   * {@code io.file.buffer.size} (4 KB by default), and the local file system's checksummed stream
   * then writes every 4.5 KB checksum chunk with a system call of its own.
   */
  private OutputStream open(boolean overwrite) {
    if (file instanceof HadoopOutputFile hadoopFile) {
      try {
        return hadoopFile.getFileSystem().create(hadoopFile.getPath(), overwrite, BUFFER_BYTES);
      } catch (FileAlreadyExistsException e) {
        throw new AlreadyExistsException(e, "Path already exists: %s", file.location());
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create " + file.location(), e);
      }
    }
    return overwrite ? file.createOrOverwrite() : file.create();
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

  /** Bytes written so far to the stream this file created. */
  long writtenLength() {
    return stream == null ? 0 : stream.getPos();
  }

  private static final class BufferedPositionOutputStream extends PositionOutputStream {
    private final OutputStream delegate;
    private final byte[] buffer;
    private int buffered;
    private long flushedBytes;
    private boolean closed;

    BufferedPositionOutputStream(OutputStream delegate, int bufferBytes) {
      this.delegate = requireNonNull(delegate, "delegate is null");
      this.buffer = new byte[bufferBytes];
    }

    @Override
    public long getPos() {
      return flushedBytes + buffered;
    }

    @Override
    public void write(int value) throws IOException {
      if (buffered == buffer.length) {
        flushBuffer();
      }
      buffer[buffered++] = (byte) value;
    }

    @Override
    public void write(byte[] source, int offset, int length) throws IOException {
      if (length >= buffer.length) {
        flushBuffer();
        delegate.write(source, offset, length);
        flushedBytes += length;
        return;
      }
      if (length > buffer.length - buffered) {
        flushBuffer();
      }
      System.arraycopy(source, offset, buffer, buffered, length);
      buffered += length;
    }

    @Override
    public void flush() throws IOException {
      flushBuffer();
      delegate.flush();
    }

    @Override
    public void close() throws IOException {
      if (closed) {
        return;
      }
      closed = true;
      try (OutputStream closing = delegate) {
        flushBuffer();
      }
    }

    private void flushBuffer() throws IOException {
      if (buffered > 0) {
        delegate.write(buffer, 0, buffered);
        flushedBytes += buffered;
        buffered = 0;
      }
    }
  }
}
