package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import dev.lakeops.io.UncachedFileOutput;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.hadoop.HadoopOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over an Iceberg one, writing through a buffer: the data files a
 * rewrite writes, whatever writes them (the decode-free merge, the Arrow writer of sort and
 * decoding binpack).
 */
public final class IcebergParquetOutputFile implements OutputFile {
  private static final int BUFFER_BYTES = 1 << 20;

  private final org.apache.iceberg.io.OutputFile file;
  private PositionOutputStream stream;

  public IcebergParquetOutputFile(org.apache.iceberg.io.OutputFile file) {
    this.file = requireNonNull(file, "file is null");
  }

  @Override
  public PositionOutputStream create(long blockSizeHint) {
    stream = positioned(open(false));
    return stream;
  }

  @Override
  public PositionOutputStream createOrOverwrite(long blockSizeHint) {
    stream = positioned(open(true));
    return stream;
  }

  /** A stream that tracks its position: a local file's buffers already, others get a buffer. */
  private static PositionOutputStream positioned(OutputStream output) {
    return output instanceof UncachedFileOutput local
        ? new UncachedPositionOutputStream(local)
        : new BufferedPositionOutputStream(output, BUFFER_BYTES);
  }

  /**
   * A Hadoop file is created with a large write buffer: Iceberg's {@code HadoopOutputFile} takes
   * {@code io.file.buffer.size} (4 KB by default), and the local file system's checksummed stream
   * then writes every 4.5 KB checksum chunk with a system call of its own. On Hadoop's local file
   * system the file is written without its {@code .crc} file: Parquet's page checksums already
   * cover every page, LakeOps reads local files without the {@code .crc} ({@code
   * ParquetInputFiles}), and computing it every 512 bytes cost a sort of 1.6 GB about 3 % of its
   * CPU. A stale {@code .crc} of an overwritten file is deleted, so that no reader checks the new
   * bytes against it. A local file is written past the page cache where the file system allows it
   * ({@link UncachedFileOutput}).
   */
  private OutputStream open(boolean overwrite) {
    if (file instanceof HadoopOutputFile hadoopFile) {
      try {
        FileSystem fileSystem = hadoopFile.getFileSystem();
        Path path = hadoopFile.getPath();
        if (fileSystem instanceof LocalFileSystem local) {
          if (overwrite) {
            local.getRawFileSystem().delete(local.getChecksumFile(path), false);
          }
          java.nio.file.Path localPath = local.pathToFile(path).toPath();
          Files.createDirectories(localPath.getParent());
          return UncachedFileOutput.create(localPath, overwrite);
        }
        return fileSystem.create(path, overwrite, BUFFER_BYTES);
      } catch (FileAlreadyExistsException | java.nio.file.FileAlreadyExistsException e) {
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
  public long writtenLength() {
    try {
      return stream == null ? 0 : stream.getPos();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot tell the length of " + file.location(), e);
    }
  }

  /** A local file's own buffered output, which counts its bytes. */
  private static final class UncachedPositionOutputStream extends PositionOutputStream {
    private final UncachedFileOutput output;

    UncachedPositionOutputStream(UncachedFileOutput output) {
      this.output = requireNonNull(output, "output is null");
    }

    @Override
    public long getPos() {
      return output.position();
    }

    @Override
    public void write(int value) throws IOException {
      output.write(value);
    }

    @Override
    public void write(byte[] source, int offset, int length) throws IOException {
      output.write(source, offset, length);
    }

    @Override
    public void close() throws IOException {
      output.close();
    }
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
