package dev.lakeops.rewrite.sort;

import static dev.lakeops.rewrite.sort.SortedTables.assertSortedWithinPartitions;
import static dev.lakeops.rewrite.sort.SortedTables.dataFiles;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.Strategy;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.types.Types;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class SortCompactionTest {
  private static final Map<String, String> SMALL_FILES =
      Map.of(RewriteOptions.TARGET_FILE_SIZE_BYTES, String.valueOf(32 * 1024));

  @TempDir Path warehouse;
  @TempDir Path spill;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void explicitSortOrderWritesEveryPartitionInOrder(int formatVersion) {
    Table table = demoTable(formatVersion, 3, 30, 500);
    RowFingerprint before = RowFingerprint.of(table);
    String order = "country ASC NULLS FIRST, ts DESC";

    CompactionResult result = compact(table, sort(order).options(SMALL_FILES));

    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    SortOrder expected = SortOrderParser.parse(table.schema(), order);
    assertThat(assertSortedWithinPartitions(table, expected)).isEqualTo(15_000);
    List<DataFile> files = dataFiles(table);
    assertThat(files).hasSizeGreaterThan(3);
    assertThat(files).allSatisfy(file -> assertThat(file.sortOrderId()).isIn(null, 0));
    assertThat(result.strategy()).isEqualTo("sort");
    assertThat(result.inputFiles()).isEqualTo(30);
    assertThat(result.outputFiles()).isEqualTo(files.size());
    assertThat(result.overlappingFiles()).isZero();
    assertThat(result.spillFiles()).isZero();
    assertThat(result.spilledBytes()).isZero();
    assertThat(overlapping(table, 3)).isZero();
  }

  @Test
  void onePartitionSpilledAndMergedRollsFilesBetweenLeadingValues() {
    // one partition, one group, spilled runs merged into files that roll where user_id changes
    Table table = demoTable(2, 1, 20, 6000);
    RowFingerprint before = RowFingerprint.of(table);
    String order = "user_id, event_id DESC";

    CompactionResult result =
        compact(table, sort(order).memoryBudget(ByteSize.ofMegabytes(16)).options(SMALL_FILES));

    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(assertSortedWithinPartitions(table, SortOrderParser.parse(table.schema(), order)))
        .isEqualTo(120_000);
    assertThat(result.spillFiles()).isGreaterThan(1);
    assertThat(dataFiles(table)).hasSizeGreaterThan(3);
    assertThat(result.overlappingFiles()).isZero();
    assertThat(overlapping(table, 2)).isZero();
  }

  @Test
  void tableSortOrderIsRecordedOnNewFilesAndSortedFilesAreLeftAlone() {
    Table table = demoTable(2, 2, 12, 400);
    table.replaceSortOrder().asc("user_id", NullOrder.NULLS_LAST).asc("event_id").commit();
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult first = compact(table, CompactionRequest.builder().strategy(Strategy.SORT));

    int orderId = table.sortOrder().orderId();
    assertThat(first.inputFiles()).isEqualTo(12);
    assertThat(dataFiles(table))
        .allSatisfy(file -> assertThat(file.sortOrderId()).isEqualTo(orderId));
    assertThat(assertSortedWithinPartitions(table, table.sortOrder())).isEqualTo(4_800);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertNullsLastInEveryFile(table);

    DemoTableGenerator.append(table, 2, 2, 100, 2, 7L);
    CompactionResult second = compact(table, CompactionRequest.builder().strategy(Strategy.SORT));

    assertThat(second.inputFiles()).isEqualTo(2);
    assertThat(compact(table, CompactionRequest.builder().strategy(Strategy.SORT)).inputFiles())
        .isZero();
  }

  @Test
  void explicitOrderEqualToTheTableOrderIsRecorded() {
    Table table = demoTable(2, 1, 6, 300);
    table.replaceSortOrder().desc("amount").commit();

    compact(table, sort("amount DESC NULLS LAST"));

    assertThat(dataFiles(table))
        .allSatisfy(file -> assertThat(file.sortOrderId()).isEqualTo(table.sortOrder().orderId()));
  }

  @Test
  void transformsInTheSortOrderAreHonoured() {
    Table table = demoTable(2, 2, 16, 400);
    RowFingerprint before = RowFingerprint.of(table);
    String order =
        "bucket(8, user_id) ASC NULLS LAST, hour(ts) DESC, truncate(3, payload), event_id";

    compact(table, sort(order));

    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(assertSortedWithinPartitions(table, SortOrderParser.parse(table.schema(), order)))
        .isEqualTo(6_400);
  }

  @Test
  void zorderKeepsRowsAndSeparatesFilesOnBothColumns() {
    Table random = demoTable("random", 0, 30, 2000);
    Table zordered = demoTable("zordered", 0, 30, 2000);
    RowFingerprint before = RowFingerprint.of(zordered);
    Map<String, String> options =
        Map.of(
            RewriteOptions.TARGET_FILE_SIZE_BYTES,
            String.valueOf(48 * 1024),
            RewriteOptions.REWRITE_ALL,
            "true");

    compact(random, CompactionRequest.builder().options(options));
    CompactionResult result =
        compact(
            zordered,
            CompactionRequest.builder()
                .strategy(Strategy.ZORDER)
                .zorderColumns(List.of("user_id", "ts"))
                .options(options));

    assertThat(RowFingerprint.of(zordered)).isEqualTo(before);
    assertThat(result.strategy()).isEqualTo("zorder");
    List<DataFile> randomFiles = dataFiles(random);
    List<DataFile> zorderFiles = dataFiles(zordered);
    assertThat(zorderFiles).hasSizeGreaterThanOrEqualTo(8);
    long randomPairs = BoundingBoxes.overlappingPairs(random.schema(), randomFiles, 2, 6);
    long zorderPairs = BoundingBoxes.overlappingPairs(zordered.schema(), zorderFiles, 2, 6);
    assertThat(BoundingBoxes.pairFraction(zorderPairs, zorderFiles.size()))
        .as(
            "z-ordered files overlap (%d pairs of %d files) much less than random ones (%d pairs of %d files)",
            zorderPairs, zorderFiles.size(), randomPairs, randomFiles.size())
        .isLessThan(0.5 * BoundingBoxes.pairFraction(randomPairs, randomFiles.size()));
    // both columns rescaled to their value ranges (from the files' metrics) lead the key in turn:
    // most files hold part of the user_id range, where a timestamp-led key spreads every file over
    // all of it
    List<Double> userIdSpans = BoundingBoxes.longSpanFractions(zordered.schema(), zorderFiles, 2);
    assertThat(userIdSpans.stream().filter(span -> span < 0.6).count())
        .as("files spanning under 60%% of the user_id range, of spans %s", userIdSpans)
        .isGreaterThanOrEqualTo(zorderFiles.size() / 2);
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void positionAndEqualityDeletesAreAppliedAndOnlyLiveRowsAreSorted(int formatVersion) {
    Table table = demoTable(formatVersion, 2, 6, 500);
    List<DataFile> files = dataFiles(table);
    DataFile first = files.get(0);
    DataFile second =
        files.stream()
            .filter(file -> !file.partition().equals(first.partition()))
            .findFirst()
            .orElseThrow();
    if (formatVersion >= 3) {
      TableFiles.deletionVector(table, first, 0, 7, 499);
    } else {
      TableFiles.deletePositions(table, first, 0, 7, 499);
    }
    long firstEventId = SortedTables.rows(table, second).iterator().next().get(0, Long.class);
    TableFiles.deleteEqual(table, second.partition(), "event_id", firstEventId, firstEventId + 1);
    table.refresh();
    RowFingerprint before = RowFingerprint.of(table);
    String order = "user_id DESC NULLS LAST, event_id";

    compact(table, sort(order).options(Map.of(RewriteOptions.REWRITE_ALL, "true")));

    assertThat(before.rowCount()).isEqualTo(3_000 - 5);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(assertSortedWithinPartitions(table, SortOrderParser.parse(table.schema(), order)))
        .isEqualTo(2_995);
  }

  @Test
  void tinyBudgetSpillsSortedRunsAndDeletesThem() throws IOException {
    Table table = demoTable(2, 2, 40, 6000);
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        compact(
            table,
            sort("country, user_id DESC NULLS FIRST")
                .memoryBudget(ByteSize.ofMegabytes(16))
                .options(Map.of(RewriteOptions.MAX_CONCURRENT_FILE_GROUP_REWRITES, "2")));

    assertThat(result.spillFiles()).isGreaterThan(2);
    // megabytes of runs (compressed and packed), not a stray batch
    assertThat(result.spilledBytes()).isGreaterThan(ByteSize.ofMegabytes(3).bytes());
    assertThat(result.peakMemoryBytes()).isLessThanOrEqualTo(ByteSize.ofMegabytes(16).bytes());
    try (Stream<Path> left = Files.list(spill)) {
      assertThat(left).isEmpty();
    }
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(
            assertSortedWithinPartitions(
                table, SortOrderParser.parse(table.schema(), "country, user_id DESC NULLS FIRST")))
        .isEqualTo(240_000);
    assertThat(result.overlappingFiles()).isZero();
  }

  @Test
  void spilledBase64IdsWithPaddingComeBackAsWritten() {
    // base64 of 16 or 17 random bytes ends in '==' or '=': 65 distinct bytes, more than six bits
    // code, so the spill packs the 63 most frequent and escapes the rest
    Table table =
        catalog.createTable(
            TableIdentifier.of("db", "tokens"),
            new Schema(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "token", Types.StringType.get()),
                Types.NestedField.optional(3, "url", Types.StringType.get())),
            PartitionSpec.unpartitioned(),
            Map.of("format-version", "2"));
    Random random = new Random(40);
    long id = 0;
    for (int file = 0; file < 8; file++) {
      List<Record> rows = new ArrayList<>();
      for (int row = 0; row < 25_000; row++, id++) {
        byte[] bytes = new byte[16 + random.nextInt(2)];
        random.nextBytes(bytes);
        Record record = GenericRecord.create(table.schema());
        record.setField("id", id);
        record.setField("token", id % 97 == 0 ? null : Base64.getEncoder().encodeToString(bytes));
        record.setField(
            "url",
            "https://example.com/page/" + random.nextInt(6) + "?ref=" + (char) (33 + row % 90));
        rows.add(record);
      }
      TableFiles.append(table, null, rows);
    }
    table.refresh();
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        compact(table, sort("token DESC NULLS LAST, id").memoryBudget(ByteSize.ofMegabytes(16)));

    assertThat(result.spillFiles()).isGreaterThan(1);
    assertThat(before.rowCount()).isEqualTo(200_000);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(
            assertSortedWithinPartitions(
                table, SortOrderParser.parse(table.schema(), "token DESC NULLS LAST, id")))
        .isEqualTo(200_000);
  }

  @ParameterizedTest(name = "{0} of {1} files")
  @CsvSource({"sort, 12, 3000", "zorder, 12, 3000", "sort, 6, 500"})
  void aFileThatCannotBeReadMidSortFailsTheCallCleanlyWithoutLeakingMemory(
      String strategy, int files, int rowsPerFile) throws IOException {
    Table table = demoTable(2, 1, files, rowsPerFile);
    long snapshotBefore = table.currentSnapshot().snapshotId();
    // one damaged file in one group: the sorter may hold batches of the others (and, at this
    // budget, spill files) when reading it fails
    List<DataFile> dataFiles = dataFiles(table);
    DataFile damaged = dataFiles.get(dataFiles.size() - 1);
    Files.write(Path.of(damaged.location()), new byte[] {'P', 'A', 'R', '1', 0, 0, 0, 0});
    CompactionRequest.Builder request =
        (strategy.equals("sort")
                ? sort("user_id DESC")
                : CompactionRequest.builder()
                    .strategy(Strategy.ZORDER)
                    .zorderColumns(List.of("user_id", "ts")))
            .memoryBudget(ByteSize.ofMegabytes(16));

    assertFailedCleanly(
        table,
        snapshotBefore,
        assertThatThrownBy(() -> compact(table, request))
            .hasMessageContaining("Cannot read data file " + damaged.location())
            .hasMessageEndingWith(
                "restore the file, or remove it from the table before compacting"));
  }

  @Test
  void aFileThatCannotBeWrittenFailsTheCallCleanly() throws IOException {
    // the data path is under a file: the first output file cannot be created
    Table table = demoTable(2, 1, 12, 3000);
    long snapshotBefore = table.currentSnapshot().snapshotId();
    Path blocker = Files.writeString(warehouse.resolve("not-a-directory"), "x");
    table.updateProperties().set("write.data.path", blocker.resolve("data").toString()).commit();
    long propertiesSnapshot = table.currentSnapshot().snapshotId();
    assertThat(propertiesSnapshot).isEqualTo(snapshotBefore);

    assertFailedCleanly(
        table,
        snapshotBefore,
        assertThatThrownBy(
                () -> compact(table, sort("user_id DESC").memoryBudget(ByteSize.ofMegabytes(16))))
            .hasMessageContaining(blocker.toString()));
  }

  /**
   * Asserts that the call failed without anything else failing while it cleaned up (an allocator
   * closed with buffers says 'Memory was leaked'), committed nothing and left no spill file.
   */
  private void assertFailedCleanly(
      Table table, long snapshotBefore, AbstractThrowableAssert<?, ? extends Throwable> failure)
      throws IOException {
    failure.satisfies(
        thrown ->
            assertThat(thrown.getSuppressed())
                .as("nothing else failed while cleaning up")
                .isEmpty());
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshotBefore);
    try (Stream<Path> left = Files.list(spill)) {
      assertThat(left).isEmpty();
    }
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "contry ASC | unknown column 'contry'; columns: event_id, user_id, country",
        "country UP | unexpected 'UP' in 'country UP'",
        "country ASC NULLS SOMETIMES | expected FIRST or LAST after NULLS in 'country ASC NULLS SOMETIMES'",
        "weeks(ts) | unknown transform 'weeks'",
        "bucket(x, user_id) | bucket needs a whole number, e.g. bucket(16, id), not 'user_id'",
        "bucket(0, user_id) | bucket needs a positive whole number",
        "day(country) | day",
        "country,, ts | empty sort field between commas",
        "bucket(16, user_id | missing ')'",
        "' ' | it is empty",
      })
  void badSortOrderIsAOneLineErrorNamingTheProblem(String order, String problem) {
    assertThatThrownBy(() -> SortOrderParser.parse(DemoTableGenerator.SCHEMA, order))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid sort order '" + order + "': ")
        .hasMessageContaining(problem)
        .satisfies(error -> assertThat(error.getMessage()).doesNotContain("\n"));
  }

  @Test
  void badSortOrderLeavesTheTableUnchanged() {
    Table table = demoTable(2, 1, 3, 10);
    long snapshot = table.currentSnapshot().snapshotId();

    assertThatThrownBy(() -> compact(table, sort("country ASC, tss DESC")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Invalid sort order 'country ASC, tss DESC': unknown column 'tss'; columns: ");
    table.refresh();
    assertThat(table.currentSnapshot().snapshotId()).isEqualTo(snapshot);
  }

  @Test
  void sortWithoutAnyOrderIsRejected() {
    Table table = demoTable(2, 1, 3, 10);

    assertThatThrownBy(() -> compact(table, CompactionRequest.builder().strategy(Strategy.SORT)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Table hadoop.db.events has no sort order: pass one in sort_order, e.g."
                + " 'country ASC NULLS FIRST, ts DESC', or set the table's sort order");
  }

  @Test
  void zorderNeedsKnownColumns() {
    Table table = demoTable(2, 1, 3, 10);

    assertThatThrownBy(() -> compact(table, CompactionRequest.builder().strategy(Strategy.ZORDER)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("strategy zorder needs columns: pass zorder_columns, e.g. user_id,ts");
    assertThatThrownBy(
            () ->
                compact(
                    table,
                    CompactionRequest.builder()
                        .strategy(Strategy.ZORDER)
                        .zorderColumns(List.of("user_id", "userid"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Invalid zorder_columns column 'userid': not a top-level column of hadoop.db.events");
  }

  private CompactionRequest.Builder sort(String order) {
    return CompactionRequest.builder().strategy(Strategy.SORT).sortOrder(order);
  }

  private CompactionResult compact(Table table, CompactionRequest.Builder request) {
    CompactionResult result =
        new TableCompactor().compact(table, request.spillDirectory(spill).build());
    table.refresh();
    return result;
  }

  private Table demoTable(int formatVersion, int days, int files, int rowsPerFile) {
    return new DemoTableGenerator(catalog)
        .create(TableIdentifier.of("db", "events"), formatVersion, days, files, rowsPerFile, 10);
  }

  private Table demoTable(String name, int days, int files, int rowsPerFile) {
    return new DemoTableGenerator(catalog)
        .create(TableIdentifier.of("db", name), 2, days, files, rowsPerFile, 10);
  }

  private static int overlapping(Table table, int fieldId) {
    return OutputOverlap.overlappingFiles(
        table.schema(),
        fieldId,
        List.copyOf(SortedTables.byPartition(table, dataFiles(table)).values()));
  }

  private static void assertNullsLastInEveryFile(Table table) {
    for (DataFile file : dataFiles(table)) {
      boolean seenNull = false;
      for (org.apache.iceberg.StructLike row : SortedTables.rows(table, file)) {
        Object userId = row.get(1, Object.class);
        if (userId == null) {
          seenNull = true;
        } else {
          assertThat(seenNull)
              .as("a non-null user_id after a null one in %s", file.location())
              .isFalse();
        }
      }
    }
  }
}
