package dev.lakeops.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.MetadataOnlyTables;
import dev.lakeops.testing.SimpleTables;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planning and committing at scale in bounded memory: a metadata-only table of 100,000 data files
 * (see {@link MetadataOnlyTables}) is planned for binpack and for sort, and the binpack plan's
 * 1,000 groups are committed as 10,000 new files, in a child JVM limited to a 192 MB heap with
 * {@code -XX:+ExitOnOutOfMemoryError}. Holding every file's statistics, as the sort plan did before
 * it kept per-group summaries, needs more than that. Not timed.
 */
class LargeTablePlanningTest {
  private static final int FILES = 100_000;

  @TempDir Path warehouse;

  @Test
  void plansAndCommitsHundredThousandFilesUnderSmallHeap() throws Exception {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, "t", 2, Map.of());
    MetadataOnlyTables.appendSmallFiles(table, FILES, 20, 40_000, 1_000);
    long startingSnapshot = table.currentSnapshot().snapshotId();

    Process child = start("-Xmx192m", "4000000", "10");
    boolean exited = child.waitFor(10, TimeUnit.MINUTES);
    String output = Files.readString(log());
    assertThat(exited).as(output).isTrue();
    assertThat(child.exitValue()).as(output).isZero();

    assertThat(output)
        .contains("phase=plan-binpack")
        .contains("files=100000 groups=1000")
        .contains("phase=plan-sort")
        .contains(
            "result planned-files=100000 planned-groups=1000 committed-groups=1000 snapshots=1 data-files-after=10000");
    assertThat(output.lines().filter(line -> line.startsWith("phase=")).toList())
        .allSatisfy(line -> assertThat(peakHeap(line)).isLessThanOrEqualTo(192L << 20));
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(startingSnapshot);
  }

  private static long peakHeap(String phaseLine) {
    for (String field : phaseLine.split(" ")) {
      if (field.startsWith("peak-heap-bytes=")) {
        return Long.parseLong(field.substring("peak-heap-bytes=".length()));
      }
    }
    throw new AssertionError("no peak-heap-bytes in " + phaseLine);
  }

  private Path log() {
    return warehouse.resolve("child.log");
  }

  private Process start(String heap, String groupBytes, String outputsPerGroup) throws IOException {
    String classPath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    return new ProcessBuilder(
            List.of(
                java,
                heap,
                "-XX:+ExitOnOutOfMemoryError",
                "-XX:+UseSerialGC",
                "--add-opens=java.base/java.nio=ALL-UNNAMED",
                "-cp",
                classPath,
                PlanAndCommitAtScale.class.getName(),
                warehouse.toString(),
                groupBytes,
                outputsPerGroup))
        .redirectErrorStream(true)
        .redirectOutput(log().toFile())
        .start();
  }
}
