package dev.lakeops.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.relocated.com.google.common.collect.Lists;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TableCompactorTest {
  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @ParameterizedTest(name = "format v{0}, decode-free merge {1}")
  @CsvSource({"1,true", "2,true", "3,true", "1,false", "2,false", "3,false"})
  void binpackKeepsRowsAndReducesFiles(int formatVersion, boolean decodeFreeMerge) {
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), formatVersion, 3, 30, 200, 5);
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(dataFiles(table)).hasSize(30);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .options(Map.of("decode-free-merge", String.valueOf(decodeFreeMerge)))
                    .build());
    assertThat(result.copiedBytes()).isEqualTo(decodeFreeMerge ? result.inputBytes() : 0);
    assertThat(result.decodedBytes()).isEqualTo(decodeFreeMerge ? 0 : result.inputBytes());
    assertThat(result.fallbackReasons())
        .isEqualTo(decodeFreeMerge ? Map.of() : Map.of("decode-free-merge off", 3));

    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(before.rowCount()).isEqualTo(6000);
    List<DataFile> after = dataFiles(table);
    assertThat(after).hasSize(3);
    assertThat(result.inputFiles()).isEqualTo(30);
    assertThat(result.outputFiles()).isEqualTo(3);
    assertThat(result.fileGroups()).isEqualTo(3);
    assertThat(result.snapshotId()).hasValue(table.currentSnapshot().snapshotId());
    for (DataFile file : after) {
      assertThat(file.recordCount()).isEqualTo(2000);
      assertThat(file.lowerBounds()).containsKeys(1, 2, 3, 5, 6, 7);
      assertThat(file.upperBounds()).containsKeys(1, 2, 3, 5, 6, 7);
      assertThat(file.nullValueCounts()).containsKeys(1, 2, 3);
      assertThat(file.valueCounts()).containsKeys(1, 2, 3, 4, 5, 6, 7, 8);
    }
  }

  @Test
  void filesWrittenByTheColumnarPathReadBackAndRewriteAgain() {
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), 2, 4, 40, 10_000, 10);
    RowFingerprint before = RowFingerprint.of(table);

    new TableCompactor().compact(table, CompactionRequest.binpack());
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    CompactionResult again =
        new TableCompactor()
            .compact(
                table, CompactionRequest.builder().options(Map.of("rewrite-all", "true")).build());

    table.refresh();
    assertThat(again.inputFiles()).isEqualTo(4);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void dryRunChangesNothing() {
    Table table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 12, 50, 4);
    long snapshotBefore = table.currentSnapshot().snapshotId();

    CompactionResult result =
        new TableCompactor().compact(table, CompactionRequest.builder().dryRun(true).build());

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
    assertThat(result.dryRun()).isTrue();
    assertThat(result.fileGroups()).isEqualTo(2);
    assertThat(result.inputFiles()).isEqualTo(12);
    assertThat(result.snapshotId()).isEmpty();
  }

  @Test
  void whereFilterLimitsTheRewriteToMatchingPartitions() {
    Table table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 12, 50, 4);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new TableCompactor()
            .compact(table, CompactionRequest.builder().where("day = '2026-11-01'").build());

    table.refresh();
    assertThat(result.inputFiles()).isEqualTo(6);
    assertThat(dataFiles(table)).hasSize(7);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void unknownOptionIsRejectedWithTheValidOnesAndTableUnchanged() {
    Table table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 1, 6, 10, 6);
    long snapshotBefore = table.currentSnapshot().snapshotId();

    assertThatThrownBy(
            () ->
                new TableCompactor()
                    .compact(
                        table,
                        CompactionRequest.builder().options(Map.of("target-size", "1")).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Unknown rewrite option 'target-size'; valid options: ")
        .hasMessageContaining("target-file-size-bytes");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
  }

  @Test
  void aGroupWhoseRewriteFailsUnderPartialProgressIsLeftOutAndCounted() throws Exception {
    Table table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 2, 12, 50, 4);
    DataFile missing = dataFiles(table).get(0);
    String brokenDay = String.valueOf(missing.partition().get(0, Object.class));
    long brokenFiles =
        dataFiles(table).stream()
            .filter(file -> String.valueOf(file.partition().get(0, Object.class)).equals(brokenDay))
            .count();
    java.nio.file.Files.delete(
        Path.of(
            java.net.URI.create(
                missing.location().startsWith("file:")
                    ? missing.location()
                    : "file:" + missing.location())));

    assertThatThrownBy(() -> new TableCompactor().compact(table, CompactionRequest.binpack()))
        .hasMessageContaining(missing.location().replaceFirst("^file:", ""));
    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .options(Map.of("partial-progress.enabled", "true"))
                    .build());

    assertThat(result.failedDataFiles()).isEqualTo((int) brokenFiles);
    assertThat(result.droppedGroups()).isEqualTo(1);
    assertThat(result.dropReasons()).singleElement().asString().contains("its rewrite failed: ");
    assertThat(result.inputFiles()).isEqualTo(12 - (int) brokenFiles);
    assertThat(result.outputFiles()).isEqualTo(1);
    assertThat(dataFiles(table)).hasSize((int) brokenFiles + 1);
  }

  private static List<DataFile> dataFiles(Table table) {
    table.refresh();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      return Lists.newArrayList(CloseableIterable.transform(tasks, FileScanTask::file));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
