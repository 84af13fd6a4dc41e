package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import dev.lakeops.io.FileChannelInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.LocalFileSystem;
import org.apache.iceberg.hadoop.HadoopInputFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Opens input files for the merge. A file on Hadoop's local file system ({@code file:}) is read
 * straight through {@code java.nio}: Hadoop's checksummed stream opens the {@code .crc} file beside
 * it, checks every 512 bytes against it and stats the file several times per open, which cost a
 * merge of thousands of small files more than copying their bytes. Any other Hadoop file is opened
 * with a large read buffer (Iceberg's {@code HadoopInputFile} takes {@code io.file.buffer.size}, 4
 * KB by default); every other file through its own stream.
 */
final class InputStreams {
  private static final int HADOOP_BUFFER_BYTES = 1 << 20;

  private InputStreams() {}

  static SeekableInputStream open(InputFile file) {
    if (file instanceof HadoopInputFile hadoopFile) {
      try {
        URI uri = hadoopFile.getPath().toUri();
        // a location without a scheme is on the default file system, the one this file was given
        if (hadoopFile.getFileSystem() instanceof LocalFileSystem
            && (uri.getScheme() == null || "file".equals(uri.getScheme()))
            && uri.getAuthority() == null) {
          return new FileChannelInputStream(FileChannel.open(java.nio.file.Path.of(uri.getPath())));
        }
        return new HadoopSeekableInputStream(
            hadoopFile.getFileSystem().open(hadoopFile.getPath(), HADOOP_BUFFER_BYTES));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot open " + file.location(), e);
      }
    }
    return file.newStream();
  }

  /** An Iceberg stream over a Hadoop one. */
  private static final class HadoopSeekableInputStream extends SeekableInputStream {
    private final FSDataInputStream stream;

    HadoopSeekableInputStream(FSDataInputStream stream) {
      this.stream = requireNonNull(stream, "stream is null");
    }

    @Override
    public long getPos() throws IOException {
      return stream.getPos();
    }

    @Override
    public void seek(long position) throws IOException {
      stream.seek(position);
    }

    @Override
    public int read() throws IOException {
      return stream.read();
    }

    @Override
    public int read(byte[] target, int offset, int length) throws IOException {
      return stream.read(target, offset, length);
    }

    @Override
    public void close() throws IOException {
      stream.close();
    }
  }
}
