package dev.lakeops.maintain.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
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
    return new DemoTableGenerator(catalog)
        .create(TableIdentifier.of("db", "events"), formatVersion, 2, 20, 10, 2);
  }

  private static int manifests(Table table) {
    table.refresh();
    return table.currentSnapshot().allManifests(table.io()).size();
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void packsTheManifestsOfASpecBySize(int formatVersion) {
    Table table = tableOfTenAppends(formatVersion);
    RowFingerprint rows = RowFingerprint.of(table);
    assertThat(manifests(table)).isEqualTo(10);

    ManifestRewriteResult result =
        new ManifestRewriter().rewrite(table, ManifestRewriteOptions.defaults());

    // two partitions, 20 entries: one manifest of the target size holds them all
    assertThat(manifests(table)).isEqualTo(1);
    assertThat(result.manifestsBefore()).isEqualTo(10);
    assertThat(result.manifestsAfter()).isEqualTo(1);
    assertThat(result.rewrittenManifests()).isEqualTo(10);
    assertThat(result.addedManifests()).isEqualTo(1);
    assertThat(result.unchangedReason()).isEmpty();
    assertThat(result.snapshotId()).hasValue(table.currentSnapshot().snapshotId());
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
  }

  @Test
  void aFourPartitionTableNeverGainsManifests() {
    // two appends of four files each, over four days: two manifests, four partitions
    Table table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "days"), 2, 4, 8, 10, 4);
    RowFingerprint rows = RowFingerprint.of(table);
    assertThat(manifests(table)).isEqualTo(2);
    table.refresh();
    assertThat(
            table.currentSnapshot().allManifests(table.io()).stream()
                .mapToInt(manifest -> manifest.addedFilesCount())
                .sum())
        .isEqualTo(8);

    ManifestRewriteResult result =
        new ManifestRewriter().rewrite(table, ManifestRewriteOptions.defaults());

    assertThat(manifests(table)).isEqualTo(1);
    assertThat(result.manifestsAfter()).isEqualTo(1);
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
  }

  @Test
  void aRewriteThatWouldAddManifestsIsNotCommittedAndLeavesNoFiles() throws IOException {
    Table table = tableOfTenAppends(2);
    long snapshot = table.currentSnapshot().snapshotId();
    List<Path> metadataFiles = metadataFiles(table);

    // at 1KB every entry gets a manifest of its own: 20 where there are 10
    ManifestRewriteResult result =
        new ManifestRewriter()
            .rewrite(
                table,
                new ManifestRewriteOptions(
                    OptionalInt.of(0), Optional.of(ByteSize.parse("1KB")), false));

    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
    assertThat(table.properties()).doesNotContainKey(TableProperties.MANIFEST_TARGET_SIZE_BYTES);
    assertThat(result.snapshotId()).isEmpty();
    assertThat(result.manifestsAfter()).isEqualTo(10);
    assertThat(result.rewrittenManifests()).isZero();
    assertThat(result.unchangedReason())
        .hasValue(
            "packing the manifests by size would leave 20 where there are 10 at the target size of 1.0KB; nothing was committed");
    assertThat(metadataFiles(table)).isEqualTo(metadataFiles);
  }

  @Test
  void targetSizeAppliesToThisRunOnlyAndTheTablePropertyStays() {
    Table table = tableOfTenAppends(2);

    ManifestRewriteResult result =
        new ManifestRewriter()
            .rewrite(
                table,
                new ManifestRewriteOptions(
                    OptionalInt.of(0), Optional.of(ByteSize.parse("1MB")), false));

    table.refresh();
    assertThat(table.properties()).doesNotContainKey(TableProperties.MANIFEST_TARGET_SIZE_BYTES);
    assertThat(result.manifestsAfter()).isEqualTo(1);
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(200);
  }

  private static List<Path> metadataFiles(Table table) throws IOException {
    try (Stream<Path> files = Files.list(Path.of(table.location(), "metadata"))) {
      return files.sorted().toList();
    }
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
                    .rewrite(
                        table,
                        new ManifestRewriteOptions(OptionalInt.of(7), Optional.empty(), false)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Partition spec 7 does not exist in table hadoop.db.events: use one of [0] in spec_id");
  }
}
