package dev.lakeops.maintain;

import dev.lakeops.maintain.expire.SnapshotExpirer;
import dev.lakeops.maintain.expire.SnapshotExpiryOptions;
import dev.lakeops.maintain.expire.SnapshotExpiryResult;
import dev.lakeops.maintain.orphan.OrphanFileRemover;
import dev.lakeops.maintain.orphan.OrphanRemovalOptions;
import dev.lakeops.maintain.orphan.OrphanRemovalResult;
import dev.lakeops.maintain.report.MaintenanceReports;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFiles;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * Not a test: builds a table with many snapshots and files, then times expiry and orphan removal.
 * Data files are small placeholder files registered with real metrics-free entries: expiry and
 * orphan removal read manifests and list directories, never data, so this measures them fairly.
 *
 * <p>Arguments: {@code [snapshots] [filesPerSnapshot] [warehouseDir]}, default {@code 400 5}
 * (2,000 files); the figure is {@code 2000 10}.
 */
public final class MaintenanceBenchmark {
  private MaintenanceBenchmark() {}

  public static void main(String[] args) throws IOException {
    int snapshots = args.length > 0 ? Integer.parseInt(args[0]) : 400;
    int filesPerSnapshot = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Path warehouse = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("lakeops-bench");
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    catalog.createNamespace(org.apache.iceberg.catalog.Namespace.of("bench"));
    Table table =
        catalog.createTable(
            TableIdentifier.of("bench", "events"),
            dev.lakeops.demo.DemoTableGenerator.SCHEMA,
            PartitionSpec.builderFor(dev.lakeops.demo.DemoTableGenerator.SCHEMA).identity("day").build(),
            Map.of("format-version", "2"));
    long started = System.nanoTime();
    build(table, snapshots, filesPerSnapshot);
    System.out.printf(Locale.ROOT, "Built %d snapshots, %d files in %.1f s at %s%n", snapshots,
        snapshots * filesPerSnapshot, (System.nanoTime() - started) / 1e9, warehouse);
    TableFiles.ageAll(table, Duration.ofDays(10));
    for (int orphan = 0; orphan < 100; orphan++) {
      TableFiles.plant(TableFiles.locationOf(table).resolve("data/day=2026-11-0" + (orphan % 7 + 1) + "/lost-" + orphan + ".parquet"), Duration.ofDays(10));
    }

    SnapshotExpiryResult expiry =
        new SnapshotExpirer()
            .expire(table, SnapshotExpiryOptions.builder().olderThan(Instant.now()).retainLast(10).build());
    System.out.println("expire-snapshots:    " + MaintenanceReports.human(expiry));
    table.refresh();
    OrphanRemovalResult orphans = new OrphanFileRemover().remove(table, OrphanRemovalOptions.defaults());
    System.out.println("remove-orphan-files: " + MaintenanceReports.human(orphans).lines().findFirst().orElse(""));
  }

  /** Appends {@code filesPerSnapshot} files per commit; every 4th commit deletes an earlier commit's files. */
  private static void build(Table table, int snapshots, int filesPerSnapshot) throws IOException {
    Path data = TableFiles.locationOf(table).resolve("data");
    List<List<DataFile>> commits = new ArrayList<>();
    for (int commit = 0; commit < snapshots; commit++) {
      if (commit % 4 == 3) {
        DeleteFiles delete = table.newDelete();
        commits.get(commit - 3).forEach(delete::deleteFile);
        delete.commit();
        commits.add(List.of());
        continue;
      }
      AppendFiles append = table.newAppend();
      List<DataFile> files = new ArrayList<>();
      for (int file = 0; file < filesPerSnapshot; file++) {
        String day = "2026-11-0" + (file % 7 + 1);
        Path path = data.resolve("day=" + day).resolve(commit + "-" + file + ".parquet");
        Files.createDirectories(path.getParent());
        Files.write(path, new byte[128]);
        DataFile dataFile =
            DataFiles.builder(table.spec())
                .withPath(path.toString())
                .withFormat(FileFormat.PARQUET)
                .withPartitionPath("day=" + day)
                .withFileSizeInBytes(128)
                .withRecordCount(1)
                .build();
        append.appendFile(dataFile);
        files.add(dataFile);
      }
      append.commit();
      commits.add(files);
    }
  }
}
