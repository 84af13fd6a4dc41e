package dev.lakeops.serve.bench;

import dev.lakeops.testing.TableFiles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.types.Types;

/**
 * The simulated lake of the serve benchmark: 24 tables in namespace {@code bench} (8 streaming, 6
 * batch-loaded, 4 CDC with position deletes, 3 idle healthy, 3 idle fragmented), a 256 KB target
 * file size, and the writers that keep committing to them. Counts the bytes writers commit, and the
 * live rows each table should hold after every commit made to it here.
 */
final class BenchmarkLake implements AutoCloseable {
  static final Namespace NAMESPACE = Namespace.of("bench");
  static final long TARGET_FILE_SIZE = 256 * 1024;
  static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "part", Types.IntegerType.get()),
          Types.NestedField.optional(3, "payload", Types.StringType.get()));

  final AtomicLong writerBytes = new AtomicLong();
  final Map<String, AtomicLong> writerBytesByKind = new java.util.concurrent.ConcurrentHashMap<>();
  final AtomicInteger writerCommits = new AtomicInteger();
  final AtomicInteger writerFailures = new AtomicInteger();
  final List<String> failureMessages = java.util.Collections.synchronizedList(new ArrayList<>());
  private final Map<String, AtomicLong> liveRows = new java.util.concurrent.ConcurrentHashMap<>();
  private final Catalog catalog;
  private final List<TableIdentifier> tables = new ArrayList<>();
  private final ScheduledExecutorService writers = Executors.newScheduledThreadPool(3);

  BenchmarkLake(Catalog catalog) {
    this.catalog = catalog;
  }

  List<TableIdentifier> tables() {
    return List.copyOf(tables);
  }

  /**
   * The live rows {@code table} holds after the commits made here: rows appended minus rows
   * deleted; maintenance must leave exactly these.
   */
  long liveRows(TableIdentifier table) {
    AtomicLong rows = liveRows.get(table.name());
    return rows == null ? 0 : rows.get();
  }

  /** Creates the 24 tables and their initial files; idle tables get all theirs now. */
  void create() {
    if (catalog instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(NAMESPACE)) {
      namespaces.createNamespace(NAMESPACE);
    }
    Random random = new Random(42);
    for (int index = 0; index < 3; index++) {
      Table healthy = createTable("healthy_" + index);
      for (int file = 0; file < 4; file++) {
        append(healthy, file % 2, random, 7_000, false);
      }
      Table fragmented = createTable("fragmented_" + index);
      for (int file = 0; file < 40; file++) {
        append(fragmented, file % 2, random, 150, false);
      }
    }
    for (int index = 0; index < 8; index++) {
      createTable("streaming_" + index);
    }
    for (int index = 0; index < 6; index++) {
      createTable("batch_" + index);
    }
    for (int index = 0; index < 4; index++) {
      createTable("cdc_" + index);
    }
  }

  /** Starts the writers: streaming every 3 s, CDC every 3 s, a batch of 16 files every 40 s. */
  void startWriters() {
    for (TableIdentifier identifier : tables) {
      String name = identifier.name();
      Table table = catalog.loadTable(identifier);
      Random random = new Random(name.hashCode());
      if (name.startsWith("streaming_")) {
        AtomicInteger count = new AtomicInteger();
        schedule(
            () -> append(table, count.getAndIncrement() % 4, random, 150, true), 3_000, random);
      } else if (name.startsWith("batch_")) {
        AtomicInteger count = new AtomicInteger();
        schedule(() -> batch(table, count.getAndIncrement() % 2, random), 40_000, random);
      } else if (name.startsWith("cdc_")) {
        Cdc cdc = new Cdc(table, random);
        schedule(cdc::next, 3_000, random);
      }
    }
  }

  /**
   * Commits {@code files} small files (150 rows each, over both partitions) to {@code table} in one
   * append: a backlog whose compaction takes a while. Counted as writers' rows and bytes.
   */
  void appendBacklog(TableIdentifier identifier, int files) {
    Table table = catalog.loadTable(identifier);
    Random random = new Random(identifier.name().hashCode());
    AppendFiles append = table.newAppend();
    long bytes = 0;
    for (int file = 0; file < files; file++) {
      DataFile written =
          TableFiles.write(table, partition(table, file % 2), rows(table, file % 2, random, 150));
      append.appendFile(written);
      bytes += written.fileSizeInBytes();
    }
    append.commit();
    addRows(table, files * 150L);
    writerBytes.addAndGet(bytes);
    writerCommits.incrementAndGet();
  }

  private void schedule(Runnable write, long periodMillis, Random random) {
    writers.scheduleWithFixedDelay(
        () -> {
          try {
            write.run();
            writerCommits.incrementAndGet();
          } catch (RuntimeException e) {
            writerFailures.incrementAndGet();
            failureMessages.add(String.valueOf(e));
          }
        },
        random.nextInt((int) periodMillis),
        periodMillis,
        TimeUnit.MILLISECONDS);
  }

  private Table createTable(String name) {
    TableIdentifier identifier = TableIdentifier.of(NAMESPACE, name);
    Table table =
        catalog.createTable(
            identifier,
            SCHEMA,
            PartitionSpec.builderFor(SCHEMA).identity("part").build(),
            Map.of(
                TableProperties.FORMAT_VERSION,
                "2",
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                String.valueOf(TARGET_FILE_SIZE),
                TableProperties.COMMIT_NUM_RETRIES,
                "10"));
    tables.add(identifier);
    return table;
  }

  private DataFile append(Table table, int part, Random random, int rows, boolean counted) {
    DataFile file =
        TableFiles.write(table, partition(table, part), rows(table, part, random, rows));
    table.newAppend().appendFile(file).commit();
    addRows(table, rows);
    if (counted) {
      written(table, file.fileSizeInBytes());
    }
    return file;
  }

  private void batch(Table table, int part, Random random) {
    AppendFiles append = table.newAppend();
    long bytes = 0;
    for (int file = 0; file < 16; file++) {
      DataFile written =
          TableFiles.write(table, partition(table, part), rows(table, part, random, 400));
      append.appendFile(written);
      bytes += written.fileSizeInBytes();
    }
    append.commit();
    addRows(table, 16 * 400);
    written(table, bytes);
  }

  private void addRows(Table table, long rows) {
    liveRows
        .computeIfAbsent(TableIdentifier.parse(table.name()).name(), name -> new AtomicLong())
        .addAndGet(rows);
  }

  /** Appends a file, then deletes rows of its own files by position, one commit each. */
  private final class Cdc {
    private final Table table;
    private final Random random;
    private final List<Object[]> own = new ArrayList<>();
    private int operation;

    Cdc(Table table, Random random) {
      this.table = table;
      this.random = random;
    }

    void next() {
      if (operation++ % 2 == 0 || own.isEmpty()) {
        int part = random.nextInt(2);
        DataFile file = append(table, part, random, 150, true);
        own.add(new Object[] {file, table.currentSnapshot().snapshotId(), new int[] {0}, part});
        return;
      }
      Object[] target = own.get(random.nextInt(own.size()));
      int position = ((int[]) target[2])[0]++;
      DataFile file = (DataFile) target[0];
      if (position >= file.recordCount()) {
        return;
      }
      table.refresh();
      DeleteFile deletes = TableFiles.writePositionDeletes(table, file, position);
      try {
        table
            .newRowDelta()
            .addDeletes(deletes)
            .validateFromSnapshot((long) target[1])
            .validateDataFilesExist(List.of(file.location()))
            .commit();
        addRows(table, -1);
        written(table, deletes.fileSizeInBytes());
      } catch (ValidationException rewrittenMeanwhile) {
        table.io().deleteFile(deletes.location());
        own.remove(target);
      }
    }
  }

  private void written(Table table, long bytes) {
    writerBytes.addAndGet(bytes);
    writerBytesByKind
        .computeIfAbsent(kind(table.name()), ignored -> new AtomicLong())
        .addAndGet(bytes);
  }

  /**
   * The kind of a table for the report: {@code streaming}, {@code batch}, {@code cdc} or {@code
   * idle} (healthy and fragmented tables nobody writes to).
   */
  static String kind(String tableName) {
    String name = tableName.substring(tableName.lastIndexOf('.') + 1);
    String prefix = name.substring(0, name.indexOf('_'));
    return prefix.equals("healthy") || prefix.equals("fragmented") ? "idle" : prefix;
  }

  private static PartitionKey partition(Table table, int part) {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    GenericRecord record = GenericRecord.create(table.schema());
    record.setField("id", 0L);
    record.setField("part", part);
    key.partition(record);
    return key;
  }

  /** {@code count} random rows of partition {@code part}. */
  static List<Record> rows(Table table, int part, Random random, int count) {
    List<Record> rows = new ArrayList<>(count);
    for (int index = 0; index < count; index++) {
      GenericRecord record = GenericRecord.create(table.schema());
      record.setField("id", random.nextLong());
      record.setField("part", part);
      record.setField(
          "payload", Long.toHexString(random.nextLong()) + Long.toHexString(random.nextLong()));
      rows.add(record);
    }
    return rows;
  }

  @Override
  public void close() throws InterruptedException {
    writers.shutdown();
    writers.awaitTermination(2, TimeUnit.MINUTES);
  }
}
