package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.copy.ParquetFooterReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.parquet.ParquetMetricsRowGroupFilter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;

/**
 * Measures what scans of a workload would read from a table's current snapshot, the way an engine
 * prunes: Iceberg scan planning with the filter (partition values and file column bounds), then,
 * per planned Parquet file, the row groups whose column statistics may match ({@link
 * ParquetMetricsRowGroupFilter}, Iceberg's own reader filter), then within those the pages a reader
 * that uses Parquet page indexes fetches ({@link PageIndexFilter}). Only footers and page indexes
 * are read. Delete files are not counted; non-Parquet files count whole.
 */
public final class ScanMeasurer {
  private final ParquetFooterReader footerReader = new ParquetFooterReader();
  private final boolean pages;

  /** Measures down to pages: reads the page indexes of every row group a filter may read. */
  public ScanMeasurer() {
    this(true);
  }

  private ScanMeasurer(boolean pages) {
    this.pages = pages;
  }

  /** Measures down to row groups only (footers only; page bytes are the row-group bytes). */
  public static ScanMeasurer rowGroupsOnly() {
    return new ScanMeasurer(false);
  }

  public ScanMeasurement measure(Table table, List<WorkloadQuery> workload) {
    requireNonNull(table, "table is null");
    requireNonNull(workload, "workload is null");
    Map<String, ParquetMetadata> footers = new HashMap<>();
    List<QueryScan> scans = new ArrayList<>();
    QueryScan whole = scan(table, new WorkloadQuery("true", Expressions.alwaysTrue()), footers);
    for (WorkloadQuery query : workload) {
      scans.add(scan(table, query, footers));
    }
    return new ScanMeasurement(whole.files(), whole.fileBytes(), whole.rowGroups(), scans);
  }

  private QueryScan scan(Table table, WorkloadQuery query, Map<String, ParquetMetadata> footers) {
    long files = 0;
    long fileBytes = 0;
    long rowGroups = 0;
    long rowGroupBytes = 0;
    long rowGroupRows = 0;
    long pageBytes = 0;
    if (table.currentSnapshot() == null) {
      return new QueryScan(query, 0, 0, 0, 0, 0);
    }
    ParquetMetricsRowGroupFilter rowGroupFilter =
        new ParquetMetricsRowGroupFilter(table.schema(), query.filter(), false);
    PageIndexFilter pageFilter = new PageIndexFilter(table.schema(), query.filter());
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().filter(query.filter()).caseSensitive(false).planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        files++;
        fileBytes += file.fileSizeInBytes();
        if (file.format() != FileFormat.PARQUET) {
          rowGroups++;
          rowGroupBytes += file.fileSizeInBytes();
          rowGroupRows += file.recordCount();
          pageBytes += file.fileSizeInBytes();
          continue;
        }
        ParquetMetadata footer =
            footers.computeIfAbsent(
                file.location(),
                location -> footerReader.read(table.io().newInputFile(location)).footer());
        MessageType fileSchema = footer.getFileMetaData().getSchema();
        for (BlockMetaData rowGroup : footer.getBlocks()) {
          if (rowGroupFilter.shouldRead(fileSchema, rowGroup)) {
            rowGroups++;
            rowGroupBytes += rowGroup.getCompressedSize();
            rowGroupRows += rowGroup.getRowCount();
            pageBytes +=
                pages
                    ? pageFilter.bytesRead(table.io().newInputFile(file.location()), rowGroup)
                    : rowGroup.getCompressedSize();
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot plan a scan of " + table.name(), e);
    }
    return new QueryScan(
        query, files, fileBytes, rowGroups, rowGroupBytes, rowGroupRows, pageBytes);
  }
}
