package dev.lakeops.serve.bench;

import dev.lakeops.testing.TableFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The lake of the scale benchmark: {@code size} unpartitioned tables in namespace {@code scale}
 * with a 256 KB target file size. One in ten is idle and fragmented ({@code fragmented_*}: 16 small
 * files in one commit), {@link #ACTIVE} are written continuously ({@code active_*}: a small file
 * every 3 s each), the rest are idle with 3 small files ({@code idle_*}). Tables are created by a
 * pool of threads; their initial files are byte copies of template Parquet files written once (each
 * table has files of its own, as on a real lake; the copies only save encoding time).
 */
final class ScaleLake implements AutoCloseable {
  static final Namespace NAMESPACE = Namespace.of("scale");
  static final int ACTIVE = 36;
  static final int FRAGMENTED_FILES = 16;
  static final int IDLE_FILES = 3;

  final AtomicInteger writerCommits = new AtomicInteger();
  final AtomicInteger writerFailures = new AtomicInteger();
  private final Catalog catalog;
  private final int size;
  private final List<TableIdentifier> tables = Collections.synchronizedList(new ArrayList<>());
  private final ScheduledExecutorService writers = Executors.newScheduledThreadPool(2);
  private final List<DataFile> templates = new ArrayList<>();
  private final List<byte[]> templateBytes = new ArrayList<>();

  ScaleLake(Catalog catalog, int size) {
    this.catalog = catalog;
    this.size = size;
  }

  List<TableIdentifier> tables() {
    return List.copyOf(tables);
  }

  /** Creates every table with its initial files, on {@code threads} threads. */
  void create(int threads) throws Exception {
    if (catalog instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(NAMESPACE)) {
      namespaces.createNamespace(NAMESPACE);
    }
    writeTemplates();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> created = new ArrayList<>();
      for (int index = 0; index < size; index++) {
        int number = index;
        created.add(pool.submit(() -> createOne(number)));
      }
      for (Future<?> one : created) {
        one.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private void createOne(int index) {
    String name;
    int files;
    if (index < ACTIVE) {
      name = String.format("active_%04d", index);
      files = 0;
    } else if (index % 10 == 0) {
      name = String.format("fragmented_%04d", index);
      files = FRAGMENTED_FILES;
    } else {
      name = String.format("idle_%04d", index);
      files = IDLE_FILES;
    }
    TableIdentifier identifier = TableIdentifier.of(NAMESPACE, name);
    Table table =
        catalog.createTable(
            identifier,
            BenchmarkLake.SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(
                TableProperties.FORMAT_VERSION,
                "2",
                TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
                String.valueOf(BenchmarkLake.TARGET_FILE_SIZE),
                TableProperties.COMMIT_NUM_RETRIES,
                "10"));
    if (files > 0) {
      AppendFiles append = table.newAppend();
      for (int file = 0; file < files; file++) {
        append.appendFile(copyOfTemplate(table, file % templates.size()));
      }
      append.commit();
    }
    tables.add(identifier);
  }

  /** Writes the template files into a table of their own (kept: it is a table of the lake). */
  private void writeTemplates() throws IOException {
    Table table =
        catalog.createTable(
            TableIdentifier.of(NAMESPACE, "template"),
            BenchmarkLake.SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.FORMAT_VERSION, "2"));
    Random random = new Random(7);
    for (int file = 0; file < 4; file++) {
      DataFile written = TableFiles.write(table, null, BenchmarkLake.rows(table, 0, random, 150));
      templates.add(written);
      try (InputStream in = table.io().newInputFile(written.location()).newStream()) {
        templateBytes.add(in.readAllBytes());
      }
    }
  }

  private DataFile copyOfTemplate(Table table, int template) {
    String path = table.locationProvider().newDataLocation(UUID.randomUUID() + ".parquet");
    try (OutputStream out = table.io().newOutputFile(path).createOrOverwrite()) {
      out.write(templateBytes.get(template));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return DataFiles.builder(table.spec()).copy(templates.get(template)).withPath(path).build();
  }

  /** Starts the writers: each active table gets a small file every 3 s. */
  void startWriters() {
    for (TableIdentifier identifier : tables()) {
      if (!identifier.name().startsWith("active_")) {
        continue;
      }
      Table table = catalog.loadTable(identifier);
      Random random = new Random(identifier.name().hashCode());
      writers.scheduleWithFixedDelay(
          () -> {
            try {
              table
                  .newAppend()
                  .appendFile(
                      TableFiles.write(table, null, BenchmarkLake.rows(table, 0, random, 150)))
                  .commit();
              writerCommits.incrementAndGet();
            } catch (RuntimeException e) {
              writerFailures.incrementAndGet();
            }
          },
          random.nextInt(3_000),
          3_000,
          TimeUnit.MILLISECONDS);
    }
  }

  @Override
  public void close() throws InterruptedException {
    writers.shutdown();
    writers.awaitTermination(2, TimeUnit.MINUTES);
  }
}
