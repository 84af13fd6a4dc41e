package dev.lakeops.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.deletes.equality.ConversionOptions;
import dev.lakeops.deletes.equality.EqualityDeleteConverter;
import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.testing.TableListing;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code convert-equality-deletes} against a concurrent compaction that replaced a data file with
 * the old sequence number (so the equality delete still applies to the new file): removing the
 * equality delete would bring rows back, so the conversion must fail cleanly.
 */
class ConversionConflictTest {
  private static final TableIdentifier NAME = TableIdentifier.of("db", "t");

  @TempDir Path warehouse;

  @Test
  void aConcurrentRewriteOfATargetFileFailsTheConversionAndLeavesTheTableCorrect() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table real = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    DataFile first = SimpleTables.append(real, 0, 0, 50);
    long firstSequenceNumber = real.currentSnapshot().sequenceNumber();
    SimpleTables.append(real, 0, 50, 50);
    TableFiles.deleteEqual(real, SimpleTables.partition(real, 0), "id", 1L, 60L);
    RowFingerprint before = RowFingerprint.of(real);
    Table table =
        TableOperationsWrapper.wrap(
            real,
            commit -> {
              if (commit == 1) {
                Table other = catalog.loadTable(NAME);
                DataFile copy =
                    TableFiles.write(
                        other,
                        SimpleTables.partition(other, 0),
                        SimpleTables.rows(other.schema(), 0, 50, 0));
                other
                    .newRewrite()
                    .rewriteFiles(Set.of(first), Set.of(copy), firstSequenceNumber)
                    .commit();
              }
            },
            commit -> {});

    assertThatThrownBy(
            () -> new EqualityDeleteConverter().convert(table, ConversionOptions.defaults()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("changed while converting its equality deletes")
        .hasMessageContaining("run convert-equality-deletes again");

    Table reloaded = catalog.loadTable(NAME);
    TableHealth health = TableHealthInspector.inspect(reloaded);
    assertThat(health.equalityDeleteFiles()).isEqualTo(1);
    assertThat(health.positionDeleteFiles()).isZero();
    assertThat(RowFingerprint.of(reloaded)).isEqualTo(before);
    assertThat(RowFingerprint.of(reloaded).rowCount()).isEqualTo(98);
    assertThat(TableListing.filesOnDisk(reloaded))
        .noneMatch(path -> path.contains("lakeops-convert"));
  }
}
