package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import org.apache.arrow.memory.RootAllocator;
import org.apache.commons.io.output.TeeOutputStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.iceberg.flink.TableLoader;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job in a JVM started without {@code --add-opens=java.base/java.nio=ALL-UNNAMED}, as a user's
 * TaskManager may be: surefire's {@code without-jvm-option} execution runs this class. Arrow's
 * memory cannot initialize there, so every compaction attempt fails; the job must go on writing
 * every row, count the failures, and log the fix once.
 */
class CompactionWithoutJvmOptionTest {
  private static final long ROWS = 1_200;

  @RegisterExtension
  static final MiniClusterExtension MINI_CLUSTER = TestJobs.miniCluster(HookGauges.configuration());

  @TempDir Path warehouse;

  @Test
  void jobGoesOnWritingCountsTheFailuresAndLogsTheFixOnce() throws Exception {
    HookGauges.clear();
    HadoopCatalog catalog = TestJobs.createTable(warehouse);
    TableLoader loader = TestJobs.loader(warehouse);
    StreamExecutionEnvironment env = TestJobs.environment(Duration.ofMillis(100));
    TestJobs.compactingEveryTwoFiles(loader)
        .build()
        .attachTo(TestJobs.writeRows(env, loader, ROWS, 100));

    String log;
    PrintStream standardError = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    System.setErr(
        new PrintStream(
            new TeeOutputStream(standardError, captured), true, StandardCharsets.UTF_8));
    try {
      env.execute("hook without the JVM option");
    } finally {
      System.setErr(standardError);
      log = captured.toString(StandardCharsets.UTF_8);
    }

    TestJobs.assertHoldsExactly(catalog, ROWS);
    assertThat(HookGauges.value("checks")).isPositive();
    if (arrowMemoryWorks()) {
      // the core no longer needs the option: nothing to report, the hook just compacts
      assertThat(HookGauges.value("failures")).isZero();
      assertThat(HookGauges.value("compactions")).isPositive();
      return;
    }
    assertThat(HookGauges.value("compactions")).isZero();
    assertThat(HookGauges.value("failures")).isPositive();
    assertThat(TestJobs.compactions(catalog.loadTable(TestJobs.IDENTIFIER))).isZero();
    String[] lines = log.split("\n");
    assertThat(
            Arrays.stream(lines)
                .filter(line -> line.contains("the JVM lacks the option Arrow needs")))
        .singleElement()
        .satisfies(
            line ->
                assertThat(line)
                    .contains("Cannot compact hadoop.db.events")
                    .contains(
                        "start the TaskManagers' JVMs with --add-opens=java.base/java.nio=ALL-UNNAMED")
                    .contains(
                        "env.java.opts.all in the Flink configuration file (conf/config.yaml)"));
    assertThat(Arrays.stream(lines).filter(line -> line.contains("the JVM still lacks")).count())
        .isEqualTo(HookGauges.value("failures") - 1);
  }

  /**
   * Whether Arrow's memory initializes in this JVM (asked after the job, so the hook met it first).
   */
  private static boolean arrowMemoryWorks() {
    try (RootAllocator allocator = new RootAllocator()) {
      allocator.buffer(8).close();
      return true;
    } catch (Throwable e) {
      return false;
    }
  }
}
