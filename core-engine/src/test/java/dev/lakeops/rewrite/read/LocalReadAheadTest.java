package dev.lakeops.rewrite.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.demo.DemoTableGenerator;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The read-ahead brings a group's local files in, in order, no further ahead of the reader than it
 * is allowed, passes over files it cannot read, and stops when closed.
 */
class LocalReadAheadTest {
  @TempDir Path warehouse;
  private Table table;
  private List<FileScanTask> tasks;

  @BeforeEach
  void createTable() throws IOException {
    table =
        new DemoTableGenerator(new HadoopCatalog(new Configuration(), warehouse.toString()))
            .create(TableIdentifier.of("db", "events"), 2, 1, 6, 500, 10);
    tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    }
    assertThat(tasks).hasSize(6);
  }

  @Test
  void bringsFilesInNoFurtherAheadThanAllowedAndPassesOverMissingOnes() throws Exception {
    // the fifth file is gone: its reader reports it, the read-ahead goes on with the sixth
    String missing = tasks.get(4).file().location();
    Files.delete(missing.startsWith("file:") ? Path.of(URI.create(missing)) : Path.of(missing));
    long twoFiles = tasks.get(0).length() + tasks.get(1).length();
    try (LocalReadAhead readAhead = LocalReadAhead.start(table.io(), tasks, "test", twoFiles)) {
      // files starting within two files of the reader's position: the first three
      awaitFiles(readAhead::filesBroughtIn, 3);
      Thread.sleep(300);
      assertThat(readAhead.filesBroughtIn()).isEqualTo(3);

      readAhead.read(tasks.stream().mapToLong(FileScanTask::length).sum());
      awaitFiles(readAhead::filesBroughtIn, 6);
    }
  }

  @Test
  void aClosedReadAheadBringsNothingMoreIn() throws Exception {
    LocalReadAhead readAhead = LocalReadAhead.start(table.io(), tasks, "test", 0);
    awaitFiles(readAhead::filesBroughtIn, 1);
    readAhead.close();
    readAhead.read(tasks.stream().mapToLong(FileScanTask::length).sum());
    Thread.sleep(300);
    assertThat(readAhead.filesBroughtIn()).isEqualTo(1);
  }

  private static void awaitFiles(IntSupplier broughtIn, int files) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (broughtIn.getAsInt() < files && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(broughtIn.getAsInt()).isEqualTo(files);
  }
}
