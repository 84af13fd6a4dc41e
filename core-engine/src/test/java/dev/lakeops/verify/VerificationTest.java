package dev.lakeops.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every rewrite path proves its rows before the commit: a wrong writer (a dropped row, a changed
 * value, a lost null) installed through {@link WriterFaults} is caught, the commit refused, the
 * written files deleted and the table's rows left as they were; a correct rewrite reports as
 * verified rows exactly the live rows another reader sees.
 */
class VerificationTest {
  private static final int FILES_PER_PARTITION = 6;
  private static final int ROWS_PER_FILE = 500;

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  /** The rewrite paths under test, each as the request that takes it. */
  enum RewritePath {
    DECODE_FREE(CompactionRequest.builder()),
    DECODING(CompactionRequest.builder().options(Map.of("decode-free-merge", "false"))),
    SORT(CompactionRequest.builder().strategy(Strategy.SORT).sortOrder("id DESC")),
    ZORDER(
        CompactionRequest.builder().strategy(Strategy.ZORDER).zorderColumns(List.of("id", "data")));

    private final CompactionRequest.Builder builder;

    RewritePath(CompactionRequest.Builder builder) {
      this.builder = builder;
    }

    CompactionRequest request() {
      return builder.build();
    }

    CompactionRequest request(VerificationMode mode) {
      return builder.build().toBuilder().verify(mode).build();
    }
  }

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @AfterEach
  void resetFault() {
    WriterFaults.reset();
  }

  @ParameterizedTest
  @EnumSource(RewritePath.class)
  void aDroppedRowIsCaughtOnEveryPath(RewritePath path) {
    Table table = tableWithNulls("dropped_" + path.name().toLowerCase(), 1);
    assertRefused(table, path.request(), WriterFault.DROPPED_ROW, "rows, expected");
  }

  @ParameterizedTest
  @ValueSource(strings = {"DECODING", "SORT", "ZORDER"})
  void aChangedValueIsCaughtByTheChecksum(String pathName) {
    RewritePath path = RewritePath.valueOf(pathName);
    Table table = tableWithNulls("changed_" + pathName.toLowerCase(), 1);
    assertRefused(
        table,
        path.request(VerificationMode.CHECKSUM),
        WriterFault.CHANGED_VALUE,
        "row checksum written");
  }

  @ParameterizedTest
  @ValueSource(strings = {"DECODING", "SORT", "ZORDER"})
  void aLostNullIsCaughtByTheChecksum(String pathName) {
    RewritePath path = RewritePath.valueOf(pathName);
    Table table = tableWithNulls("lost_" + pathName.toLowerCase(), 1);
    // a table with deletes: the null counts may fall, so only the checksum can tell
    deleteFirstRows(table);
    assertRefused(
        table,
        path.request(VerificationMode.CHECKSUM),
        WriterFault.LOST_NULL,
        "row checksum written");
  }

  @Test
  void aLostNullIsCaughtByCountsWhereNoDeletesApply() {
    Table table = tableWithNulls("lost_counts", 1);
    assertRefused(
        table,
        RewritePath.DECODING.request(VerificationMode.COUNTS),
        WriterFault.LOST_NULL,
        "column data has "
            + (nullsPerPartition() - FILES_PER_PARTITION)
            + " nulls written, expected "
            + nullsPerPartition());
  }

  @Test
  void withPartialProgressTheGroupsThatPassCommit() {
    Table table = tableWithNulls("partial", 1);
    // a second partition without nulls: a lost-null writer has nothing to lose there
    for (int file = 0; file < FILES_PER_PARTITION; file++) {
      TableFiles.append(
          table,
          SimpleTables.partition(table, 2),
          SimpleTables.rows(table.schema(), 100_000 + file * ROWS_PER_FILE, ROWS_PER_FILE, 2));
    }
    RowFingerprint before = RowFingerprint.of(table);
    WriterFaults.install(WriterFault.LOST_NULL);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .options(
                        Map.of("decode-free-merge", "false", "partial-progress.enabled", "true"))
                    .verify("counts")
                    .build());

    assertThat(result.verificationMode()).isEqualTo("counts");
    assertThat(result.verificationFailures()).isEqualTo(1);
    assertThat(result.committedGroups()).isEqualTo(1);
    assertThat(result.verifiedRows()).isEqualTo((long) FILES_PER_PARTITION * ROWS_PER_FILE);
    assertThat(result.dropReasons())
        .singleElement()
        .asString()
        .contains("verification: group")
        .contains("(part=1)")
        .contains("nulls written, expected " + nullsPerPartition());
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(dataFilesOf(table, 1)).hasSize(FILES_PER_PARTITION);
    assertThat(dataFilesOf(table, 2)).hasSize(1);
  }

  @ParameterizedTest
  @ValueSource(strings = {"DECODE_FREE", "SORT"})
  void verifiedRowsAreTheLiveRowsAnotherReaderSees(String pathName) {
    Table table = tableWithNulls("live_" + pathName.toLowerCase(), 2);
    deleteFirstRows(table);
    long live = liveRowsReadByIceberg(table);
    assertThat(live).isLessThan(2L * FILES_PER_PARTITION * ROWS_PER_FILE);

    CompactionResult result =
        new TableCompactor().compact(table, RewritePath.valueOf(pathName).request());

    assertThat(result.verificationMode())
        .isEqualTo(pathName.equals("SORT") ? "checksum" : "counts");
    assertThat(result.verificationFailures()).isZero();
    assertThat(result.verifiedRows()).isEqualTo(live);
    if (pathName.equals("DECODE_FREE")) {
      assertThat(result.fallbackReasons()).isEmpty();
    }
    table.refresh();
    assertThat(liveRowsReadByIceberg(table)).isEqualTo(live);
  }

  @Test
  void checksumOnBinpackDecodesAndSaysWhy() {
    Table table = tableWithNulls("checksum_binpack", 1);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new TableCompactor()
            .compact(table, RewritePath.DECODE_FREE.request(VerificationMode.CHECKSUM));

    assertThat(result.verificationMode()).isEqualTo("checksum");
    assertThat(result.fallbackReasons()).isEqualTo(Map.of("checksum verification", 1));
    assertThat(result.verifiedRows()).isEqualTo(before.rowCount());
    table.refresh();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void verificationOffCommitsWhatTheWriterWrote() {
    Table table = tableWithNulls("off", 1);
    WriterFaults.install(WriterFault.DROPPED_ROW);

    CompactionResult result =
        new TableCompactor().compact(table, RewritePath.DECODING.request(VerificationMode.OFF));

    assertThat(result.verificationMode()).isEqualTo("off");
    assertThat(result.verifiedRows()).isZero();
    table.refresh();
    assertThat(RowFingerprint.of(table).rowCount())
        .isLessThan((long) FILES_PER_PARTITION * ROWS_PER_FILE);
  }

  @Test
  void aBadModeIsRefusedBeforeTheTableIsTouched() {
    Table table = tableWithNulls("bad_mode", 1);
    String metadataBefore = currentMetadata(table);

    assertThatThrownBy(
            () ->
                new TableCompactor()
                    .compact(table, CompactionRequest.builder().verify("sha256").build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid verify value 'sha256': use one of counts, checksum, off");
    table.refresh();
    assertThat(currentMetadata(table)).isEqualTo(metadataBefore);
  }

  /**
   * Compacts {@code table} with {@code fault} installed and asserts the run failed verification,
   * committed nothing, left no written file behind and left the rows as they were.
   */
  private void assertRefused(
      Table table, CompactionRequest request, WriterFault fault, String expectedReason) {
    RowFingerprint before = RowFingerprint.of(table);
    long snapshotBefore = table.currentSnapshot().snapshotId();
    Set<String> filesBefore = dataDirectoryFiles(table);
    WriterFaults.install(fault);

    assertThatThrownBy(() -> new TableCompactor().compact(table, request))
        .isInstanceOf(GroupVerificationException.class)
        .hasMessageStartingWith("verification: group 0 (part=1) ")
        .hasMessageContaining(expectedReason);

    WriterFaults.reset();
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
    assertThat(dataDirectoryFiles(table)).isEqualTo(filesBefore);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  /**
   * A table of {@code partitions} partitions of {@link #FILES_PER_PARTITION} files each, whose
   * {@code data} column is null in every fourth row.
   */
  private Table tableWithNulls(String name, int partitions) {
    Table table = SimpleTables.create(catalog, name, 2, Map.of());
    long id = 0;
    for (int part = 1; part <= partitions; part++) {
      for (int file = 0; file < FILES_PER_PARTITION; file++) {
        List<Record> rows = new ArrayList<>();
        for (int row = 0; row < ROWS_PER_FILE; row++, id++) {
          GenericRecord record = GenericRecord.create(table.schema());
          record.setField("id", id);
          record.setField("part", part);
          record.setField("data", id % 4 == 0 ? null : "row-" + id);
          rows.add(record);
        }
        TableFiles.append(table, SimpleTables.partition(table, part), rows);
      }
    }
    return table;
  }

  private static long nullsPerPartition() {
    return (long) FILES_PER_PARTITION * ROWS_PER_FILE / 4;
  }

  /** Deletes rows 1 to 9 of every data file by position. */
  private static void deleteFirstRows(Table table) {
    for (DataFile file : dataFiles(table)) {
      TableFiles.deletePositions(table, file, 1, 2, 3, 4, 5, 6, 7, 8, 9);
    }
  }

  private static long liveRowsReadByIceberg(Table table) {
    try (CloseableIterable<Record> rows = IcebergGenerics.read(table).build()) {
      long count = 0;
      for (Record ignored : rows) {
        count++;
      }
      return count;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static List<DataFile> dataFiles(Table table) {
    table.refresh();
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<org.apache.iceberg.FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  private static List<DataFile> dataFilesOf(Table table, int part) {
    return dataFiles(table).stream()
        .filter(file -> file.partition().get(0, Integer.class) == part)
        .toList();
  }

  /** Every file under the table's data directory, data and delete files alike. */
  private static Set<String> dataDirectoryFiles(Table table) {
    Path data = Path.of(table.location().replaceFirst("^file:", ""), "data");
    try (Stream<Path> files = Files.walk(data)) {
      return files
          .filter(Files::isRegularFile)
          .map(Path::toString)
          .filter(file -> !file.endsWith(".crc"))
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String currentMetadata(Table table) {
    return ((org.apache.iceberg.HasTableOperations) table)
        .operations()
        .current()
        .metadataFileLocation();
  }
}
