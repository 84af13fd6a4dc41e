package dev.lakeops.maintain.orphan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.maintain.TableFiles;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
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

class OrphanFileRemoverTest {
  private static final Duration OLD = Duration.ofDays(10);

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  private Table agedTable(int formatVersion) {
    Table table =
        new DemoTableGenerator(catalog)
            .create(TableIdentifier.of("db", "events"), formatVersion, 2, 8, 40, 2);
    TableFiles.ageAll(table, OLD);
    return table;
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void removesExactlyTheOldUnreferencedFiles(int formatVersion) {
    Table table = agedTable(formatVersion);
    Path root = TableFiles.locationOf(table);
    Set<Path> referenced = TableFiles.onDisk(table);
    List<Path> oldOrphans =
        List.of(
            TableFiles.plant(root.resolve("data/day=2026-11-01/00000-9-lost.parquet"), OLD),
            TableFiles.plant(root.resolve("data/abandoned/part-1.parquet"), OLD),
            TableFiles.plant(root.resolve("metadata/lost-manifest-m0.avro"), OLD),
            TableFiles.plant(root.resolve("stray.txt"), Duration.ofDays(4)));
    List<Path> youngOrphans =
        List.of(
            TableFiles.plant(
                root.resolve("data/day=2026-11-02/00000-9-inflight.parquet"), Duration.ofHours(1)),
            TableFiles.plant(root.resolve("metadata/snap-inflight.avro"), Duration.ofDays(2)));
    Path hidden = TableFiles.plant(root.resolve("data/_temporary/attempt.parquet"), OLD);
    RowFingerprint rows = RowFingerprint.of(table);

    OrphanRemovalResult result =
        new OrphanFileRemover().remove(table, OrphanRemovalOptions.defaults());

    assertThat(result.orphanFiles()).hasSize(4);
    assertThat(result.deletedFiles()).isEqualTo(4);
    assertThat(result.tooNewFiles()).isEqualTo(2);
    assertThat(result.listedFiles()).isEqualTo(referenced.size() + 6);
    assertThat(oldOrphans).allMatch(path -> !Files.exists(path));
    assertThat(youngOrphans).allMatch(Files::exists);
    assertThat(hidden).exists();
    assertThat(referenced).allMatch(Files::exists);
    assertThat(RowFingerprint.of(table)).isEqualTo(rows);
    assertThat(TableFiles.readEverySnapshot(table)).hasSize(4);
  }

  @Test
  void dryRunListsTheOrphansAndDeletesNothing() {
    Table table = agedTable(2);
    Path orphan = TableFiles.plant(TableFiles.locationOf(table).resolve("data/lost.parquet"), OLD);
    Set<Path> before = TableFiles.onDisk(table);

    OrphanRemovalResult result =
        new OrphanFileRemover().remove(table, OrphanRemovalOptions.builder().dryRun(true).build());

    assertThat(result.dryRun()).isTrue();
    assertThat(result.orphanFiles()).singleElement().asString().endsWith("data/lost.parquet");
    assertThat(result.deletedFiles()).isZero();
    assertThat(orphan).exists();
    assertThat(TableFiles.onDisk(table)).isEqualTo(before);
  }

  @Test
  void metadataFilesThatLeftTheMetadataLogAreOrphans() {
    Table table =
        new DemoTableGenerator(catalog).create(TableIdentifier.of("db", "events"), 2, 1, 2, 10, 1);
    table.updateProperties().set(TableProperties.METADATA_PREVIOUS_VERSIONS_MAX, "1").commit();
    table.updateProperties().set("owner", "lakeops").commit();
    TableFiles.ageAll(table, OLD);

    OrphanRemovalResult result =
        new OrphanFileRemover().remove(table, OrphanRemovalOptions.defaults());

    table.refresh();
    assertThat(result.orphanFiles())
        .hasSize(3)
        .allMatch(location -> location.endsWith(".metadata.json"));
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(20);
  }

  @Test
  void cutoffBelowTheSafetyFloorIsRefusedWithoutForce() {
    assertThatThrownBy(() -> OrphanRemovalOptions.builder().olderThan(Duration.ofHours(1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "older_than 1h is below the 3d safety floor: files of writes still in progress could be deleted;"
                + " use an older cutoff (the command line's --force goes below it)");
  }

  @Test
  void forceAllowsACutoffBelowTheFloor() {
    Table table = agedTable(2);
    Path recent =
        TableFiles.plant(
            TableFiles.locationOf(table).resolve("data/recent.parquet"), Duration.ofHours(2));

    OrphanRemovalResult result =
        new OrphanFileRemover()
            .remove(
                table,
                OrphanRemovalOptions.builder()
                    .olderThan(Duration.ofHours(1))
                    .allowBelowSafetyFloor(true)
                    .build());

    assertThat(result.deletedFiles()).isEqualTo(1);
    assertThat(recent).doesNotExist();
  }

  @Test
  void locationOutsideTheTableIsRefused() {
    Table table = agedTable(2);

    assertThatThrownBy(
            () ->
                new OrphanFileRemover()
                    .remove(
                        table,
                        OrphanRemovalOptions.builder().location(warehouse.toString()).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Location " + warehouse + " is outside the table location")
        .hasMessageEndingWith("pass a directory under the table location");
  }

  @Test
  void locationInsideTheTableLimitsTheListing() {
    Table table = agedTable(2);
    Path root = TableFiles.locationOf(table);
    Path inData = TableFiles.plant(root.resolve("data/lost.parquet"), OLD);
    Path inMetadata = TableFiles.plant(root.resolve("metadata/lost.avro"), OLD);

    OrphanRemovalResult result =
        new OrphanFileRemover()
            .remove(
                table,
                OrphanRemovalOptions.builder().location(root.resolve("data").toString()).build());

    assertThat(result.deletedFiles()).isEqualTo(1);
    assertThat(inData).doesNotExist();
    assertThat(inMetadata).exists();
  }

  @Test
  void concurrentWriterLosesNoFile() throws Exception {
    Table table = agedTable(2);
    Path orphan = TableFiles.plant(TableFiles.locationOf(table).resolve("data/lost.parquet"), OLD);
    Table writerView = catalog.loadTable(TableIdentifier.of("db", "events"));
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger commits = new AtomicInteger();
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                for (long seed = 100; !stop.get() && seed < 140; seed++) {
                  DemoTableGenerator.append(writerView, 2, 2, 20, 2, seed);
                  commits.incrementAndGet();
                }
              } catch (Throwable t) {
                writerFailure.set(t);
              }
            });
    writer.start();
    OrphanRemovalResult result;
    try {
      result = new OrphanFileRemover().remove(table, OrphanRemovalOptions.defaults());
      new OrphanFileRemover().remove(table, OrphanRemovalOptions.defaults());
    } finally {
      stop.set(true);
      writer.join();
    }

    assertThat(writerFailure.get()).isNull();
    assertThat(result.orphanFiles()).singleElement().asString().endsWith("data/lost.parquet");
    assertThat(orphan).doesNotExist();
    TableFiles.readEverySnapshot(table);
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(8 * 40 + commits.get() * 40L);
  }

  @Test
  void gcDisabledTableIsRefused() {
    Table table = agedTable(2);
    table.updateProperties().set(TableProperties.GC_ENABLED, "false").commit();

    assertThatThrownBy(() -> new OrphanFileRemover().remove(table, OrphanRemovalOptions.defaults()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Cannot remove orphan files of hadoop.db.events: table property gc.enabled is false (its files may be"
                + " shared with other tables); set gc.enabled=true only if they are not");
  }

  @Test
  void unknownPrefixMismatchModeIsRejected() {
    assertThatThrownBy(() -> PrefixMismatchMode.parse("skip"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid prefix mismatch mode 'skip': use one of error, ignore, delete");
  }

  @Test
  void optionMapsAreCopied() {
    OrphanRemovalOptions options =
        OrphanRemovalOptions.builder().equalAuthorities(Map.of("a", "b")).build();
    assertThat(options.equalSchemes()).containsEntry("s3a,s3n", "s3");
    assertThat(options.equalAuthorities()).containsEntry("a", "b");
  }
}
