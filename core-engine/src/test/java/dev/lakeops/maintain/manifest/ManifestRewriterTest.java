package dev.lakeops.maintain.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ManifestRewriterTest {
  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  private Table tableOfTenAppends(int formatVersion) {
    return new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), formatVersion, 2, 20, 10, 2);
  }

  private static int manifests(Table table) {
    table.refresh();
    return table.currentSnapshot().allManifests(table.io()).size();
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void clustersManifestsByPartition(int formatVersion) {
    Table table = tableOfTenAppends(formatVersion);
    RowFingerprint rows = RowFingerprint.of(table);
    assertThat(manifests(table)).isEqualTo(10);

    ManifestRewriteResult result = new ManifestRewriter().rewrite(table, ManifestRewriteOptions.defaults());

    assertThat(manifests(table)).isEqualTo(2);
    assertThat(result.manifestsBefore()).isEqualTo(10);
    assertThat(result.manifestsAfter()).isEqualTo(2);
    assertThat(result.rewrittenManifests()).isEqualTo(10);
    assertThat(result.addedManifests()).isEqualTo(2);
    assertThat(result.snapshotId()).hasValue(table.currentSnapshot().snapshotId());
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
  }

  @Test
  void targetSizeAppliesToThisRunOnlyAndTheTablePropertyStays() {
    Table table = tableOfTenAppends(2);

    ManifestRewriteResult result =
        new ManifestRewriter()
            .rewrite(table, new ManifestRewriteOptions(OptionalInt.of(0), Optional.of(ByteSize.parse("1KB")), false));

    table.refresh();
    assertThat(table.properties()).doesNotContainKey(TableProperties.MANIFEST_TARGET_SIZE_BYTES);
    assertThat(result.manifestsAfter()).isGreaterThan(2);
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(200);
  }

  @Test
  void dryRunChangesNothing() {
    Table table = tableOfTenAppends(2);
    long snapshot = table.currentSnapshot().snapshotId();

    ManifestRewriteResult result =
        new ManifestRewriter().rewrite(table, ManifestRewriteOptions.defaults().withDryRun(true));

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(result.rewrittenManifests()).isEqualTo(10);
    assertThat(result.manifestsAfter()).isEqualTo(10);
  }

  @Test
  void unknownSpecIdIsRejected() {
    Table table = tableOfTenAppends(2);

    assertThatThrownBy(
            () ->
                new ManifestRewriter()
                    .rewrite(table, new ManifestRewriteOptions(OptionalInt.of(7), Optional.empty(), false)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Partition spec 7 does not exist in table hadoop.db.events: use one of [0] (--spec-id)");
  }
}
