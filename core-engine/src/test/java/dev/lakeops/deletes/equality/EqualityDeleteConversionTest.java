package dev.lakeops.deletes.equality;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Converting equality deletes beyond the memory budget spills and keeps the rows ({@code
 * ConvertEqualityDeletesCommandTest} runs {@code lakeops convert-equality-deletes} on the same
 * table).
 */
class EqualityDeleteConversionTest {
  @TempDir Path warehouse;
  @TempDir Path spill;

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void keysBeyondTheBudgetAreConvertedBySpilling(int formatVersion) {
    Table table = deletedTable(formatVersion, 50_000);
    RowFingerprint before = RowFingerprint.of(table);

    ConversionResult result =
        new EqualityDeleteConverter()
            .convert(
                table,
                ConversionOptions.defaults()
                    .withMemoryBudget(ByteSize.parse("16MB"))
                    .withSpillDirectory(spill));

    table.refresh();
    assertThat(result.spilledBytes()).isPositive();
    assertThat(result.removed().equalityDeleteFiles()).isEqualTo(3);
    assertThat(TableHealthInspector.inspect(table).equalityDeleteFiles()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(spill.toFile().list()).isEmpty();
  }

  private Table deletedTable(int formatVersion, int idDeletes) {
    return EqualityDeletedTables.create(
        new HadoopCatalog(new Configuration(), warehouse.toString()), formatVersion, idDeletes);
  }
}
