package dev.lakeops.rewrite;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;

/**
 * The largest Parquet row group among a group's input files, from the row-group start offsets
 * Iceberg keeps in each {@link DataFile} ({@code split_offsets}); a file without offsets counts as
 * one row group as large as the file. Reading a file holds one row group's column chunks on the
 * heap at a time, so this is what the decoding paths reserve for their reader.
 */
public final class InputRowGroupSizes {
  private InputRowGroupSizes() {}

  public static long largestRowGroupBytes(List<FileScanTask> tasks) {
    long largest = 0;
    for (FileScanTask task : tasks) {
      largest = Math.max(largest, largestRowGroupBytes(task.file()));
    }
    return largest;
  }

  static long largestRowGroupBytes(DataFile file) {
    List<Long> offsets = file.splitOffsets();
    if (offsets == null || offsets.isEmpty()) {
      return file.fileSizeInBytes();
    }
    long largest = 0;
    for (int index = 0; index < offsets.size(); index++) {
      long end = index + 1 < offsets.size() ? offsets.get(index + 1) : file.fileSizeInBytes();
      largest = Math.max(largest, end - offsets.get(index));
    }
    return largest;
  }
}
