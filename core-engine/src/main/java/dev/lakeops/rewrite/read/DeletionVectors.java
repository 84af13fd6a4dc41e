package dev.lakeops.rewrite.read;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.parquet.io.SeekableInputStream;

/**
 * Reads a data file's deletion vector (format v3) straight from its Puffin file: the blob's bytes
 * at the offset and length the delete file names (a local file read through {@code java.nio}, as
 * {@link ParquetInputFiles} opens delete files), deserialized as Iceberg's delete loader does. Only
 * for a task whose one delete file is an unencrypted deletion vector; others go through Iceberg's
 * delete filter, which costs a projection of the table schema per task.
 */
final class DeletionVectors {
  private final ParquetInputFiles inputFiles;

  DeletionVectors(ParquetInputFiles inputFiles) {
    this.inputFiles = requireNonNull(inputFiles, "inputFiles is null");
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
    try (SeekableInputStream stream = inputFiles.open(delete).newStream()) {
      stream.seek(delete.contentOffset());
      stream.readFully(bytes);
    }
    return Optional.of(PositionDeleteIndex.deserialize(bytes, delete));
  }
}
