package dev.lakeops.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.deletes.equality.EqualityDeleteFiles;
import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Large equality-delete sets compact under {@code lakeops compact --memory 64MB}, in a separate JVM
 * whose heap is small too ({@code -Xmx160m}): 800,000 deleted keys would need about 150 MB of heap
 * in Iceberg's in-memory delete set; LakeOps resolves them by spilling, inside the budget.
 */
class EqualityDeleteHeapTest {
  private static final int FILES = 4;
  private static final int ROWS_PER_FILE = 400_000;
  private static final int DELETED_KEYS = 800_000;

  @TempDir Path warehouse;

  @Test
  void largeEqualityDeleteSetCompactsUnderSixtyFourMegabytesInASmallHeap() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, "t", 2, Map.of());
    PartitionKey partition = SimpleTables.partition(table, 0);
    AppendFiles append = table.newAppend();
    for (int file = 0; file < FILES; file++) {
      append.appendFile(
          TableFiles.write(
              table,
              partition,
              SimpleTables.rows(table.schema(), (long) file * ROWS_PER_FILE, ROWS_PER_FILE, 0)));
    }
    append.commit();
    EqualityDeleteFiles.commit(table, partition, "id", DELETED_KEYS, index -> index * 2);
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isEqualTo((long) FILES * ROWS_PER_FILE - DELETED_KEYS);

    Path spill = Files.createDirectories(warehouse.resolve("spill"));
    Path log = warehouse.resolve("child.log");
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process process =
        new ProcessBuilder(
                java,
                "-Xmx160m",
                "-XX:+ExitOnOutOfMemoryError",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                classPath,
                "dev.lakeops.cli.Main",
                "compact",
                "db.t",
                "--warehouse",
                warehouse.toString(),
                "--memory",
                "64MB",
                "--spill-dir",
                spill.toString(),
                "--option",
                "rewrite-all=true",
                "--json")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    boolean exited = process.waitFor(4, TimeUnit.MINUTES);
    if (!exited) {
      process.destroyForcibly();
    }
    String output = Files.readString(log, StandardCharsets.UTF_8);

    assertThat(exited).as(output).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output)
        .doesNotContain("\"spilled_bytes\":0,")
        .contains("\"removed_delete_files\":1");
    Table compacted = catalog.loadTable(TableIdentifier.of("db", "t"));
    TableHealth health = TableHealthInspector.inspect(compacted);
    assertThat(health.equalityDeleteFiles()).isZero();
    assertThat(health.dataFiles()).isEqualTo(1);
    assertThat(RowFingerprint.of(compacted)).isEqualTo(before);
    assertThat(spill.toFile().list()).isEqualTo(new String[0]);
    assertThat(List.of(new File(warehouse.toFile(), "db").list())).contains("t");
  }
}
