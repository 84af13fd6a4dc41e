package dev.lakeops.compact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Compaction of a table whose partition spec evolved (by day, then by month): each file group is
 * written in its input files' spec, and Iceberg's {@code output-spec-id}, which would move files to
 * another spec, is refused rather than ignored.
 */
class PartitionEvolutionCompactionTest {
  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void outputSpecIdIsRefusedAndTheTableIsUnchanged(int formatVersion) {
    Table table = evolvedTable(formatVersion);
    long snapshotBefore = table.currentSnapshot().snapshotId();

    assertThatThrownBy(
            () ->
                new TableCompactor()
                    .compact(
                        table,
                        CompactionRequest.builder()
                            .options(
                                Map.of("output-spec-id", String.valueOf(table.spec().specId())))
                            .build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Rewrite option 'output-spec-id' is not supported:");

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void eachGroupIsWrittenInItsInputFilesSpec(int formatVersion) {
    Table table = evolvedTable(formatVersion);
    RowFingerprint before = RowFingerprint.of(table);
    Map<Integer, Long> rowsBySpecBefore = rowsBySpec(table);
    assertThat(rowsBySpecBefore).containsOnlyKeys(0, 1);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table, CompactionRequest.builder().options(Map.of("min-input-files", "2")).build());

    table.refresh();
    assertThat(result.outputFiles()).isPositive().isLessThan(result.inputFiles());
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(rowsBySpec(table)).isEqualTo(rowsBySpecBefore);
  }

  /** Six files by day (spec 0), then six more after the spec moved to months (spec 1). */
  private Table evolvedTable(int formatVersion) {
    Table table =
        new DemoTableGenerator(catalog)
            .create(
                TableIdentifier.of("db", "evolved_v" + formatVersion), formatVersion, 3, 6, 50, 3);
    table.updateSpec().removeField("day").addField(Expressions.month("day")).commit();
    DemoTableGenerator.append(table, 3, 6, 50, 3, 7L);
    table.refresh();
    return table;
  }

  private static Map<Integer, Long> rowsBySpec(Table table) {
    Map<Integer, Long> rows = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        rows.merge(task.file().specId(), task.file().recordCount(), Long::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return rows;
  }
}
