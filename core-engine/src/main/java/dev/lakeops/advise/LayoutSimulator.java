package dev.lakeops.advise;

import static java.util.Objects.requireNonNull;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.plan.RewriteOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;

/**
 * Measures the benefit of a layout without changing the table: measures the current layout,
 * compacts a metadata-only {@link TableCopy} in a private temporary directory into the layout
 * (every file rewritten: {@code rewrite-all=true}), measures the copy and deletes the directory.
 * Costs one rewrite of the table; the temporary directory needs about the table's size.
 */
public final class LayoutSimulator {
  private final ScanMeasurer measurer = new ScanMeasurer();
  private final Path workDirectory;

  /** Simulates in a temporary directory under {@code workDirectory}. */
  public LayoutSimulator(Path workDirectory) {
    this.workDirectory = requireNonNull(workDirectory, "workDirectory is null");
  }

  /**
   * @param layout a sort or zorder request, e.g. {@link AutoStrategyChoice#request()}; its options,
   *     memory budget and spill directory apply to the copy's compaction
   */
  public LayoutBenefit simulate(
      Table table, CompactionRequest layout, List<WorkloadQuery> workload) {
    requireNonNull(table, "table is null");
    requireNonNull(layout, "layout is null");
    requireNonNull(workload, "workload is null");
    if (layout.strategy() == Strategy.AUTO) {
      throw new IllegalArgumentException("Resolve the auto strategy before simulating it");
    }
    ScanMeasurement before = measurer.measure(table, workload);
    Path directory = createDirectory();
    try {
      Table copy = TableCopy.create(table, directory);
      Map<String, String> options = new LinkedHashMap<>(layout.options());
      options.put(RewriteOptions.REWRITE_ALL, "true");
      CompactionResult compaction =
          new TableCompactor()
              .compact(copy, layout.toBuilder().options(options).dryRun(false).build());
      copy.refresh();
      return new LayoutBenefit(before, measurer.measure(copy, workload), compaction);
    } finally {
      deleteRecursively(directory);
    }
  }

  private Path createDirectory() {
    try {
      Files.createDirectories(workDirectory);
      return Files.createTempDirectory(workDirectory, "lakeops-advise-");
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot create a directory for the layout simulation under " + workDirectory, e);
    }
  }

  /** Deletes the simulation's own directory: only files the copy wrote, never the original's. */
  private static void deleteRecursively(Path directory) {
    try {
      Files.walkFileTree(
          directory,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes)
                throws IOException {
              Files.delete(file);
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path visited, IOException failure)
                throws IOException {
              Files.delete(visited);
              return FileVisitResult.CONTINUE;
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot delete the layout simulation directory " + directory, e);
    }
  }
}
