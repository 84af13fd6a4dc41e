package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.copy.InputStreams;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.IOUtil;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Reads a data file's deletion vector (format v3) straight from its Puffin file: the blob's bytes
 * at the offset and length the delete file names, deserialized as Iceberg's delete loader does.
 * Only for a task whose one delete file is an unencrypted deletion vector; others go through
 * Iceberg's delete filter, which costs a projection of the table schema per task.
 */
final class DeletionVectors {
  private final FileIO io;

  DeletionVectors(FileIO io) {
    this.io = requireNonNull(io, "io is null");
  }

  /** Whether {@code deletes} is one deletion vector that {@link #read} reads. */
  static boolean reads(List<DeleteFile> deletes) {
    if (deletes.size() != 1) {
      return false;
    }
    DeleteFile delete = deletes.get(0);
    return ContentFileUtil.isDV(delete)
        && delete.keyMetadata() == null
        && delete.contentOffset() != null
        && delete.contentSizeInBytes() != null;
  }

  /** The positions deletion vector {@code delete} deletes; empty if {@link #reads} says no. */
  Optional<PositionDeleteIndex> read(List<DeleteFile> deletes) throws IOException {
    if (!reads(deletes)) {
      return Optional.empty();
    }
    DeleteFile delete = deletes.get(0);
    long length = delete.contentSizeInBytes();
    if (length > Integer.MAX_VALUE - 64) {
      throw new IOException(
          "Deletion vector of " + length + " bytes in " + delete.location() + " is too large");
    }
    byte[] bytes = new byte[(int) length];
    InputFile file = io.newInputFile(delete.location(), delete.fileSizeInBytes());
    try (SeekableInputStream stream = InputStreams.open(file)) {
      stream.seek(delete.contentOffset());
      IOUtil.readFully(stream, bytes, 0, bytes.length);
    }
    return Optional.of(PositionDeleteIndex.deserialize(bytes, delete));
  }
}
