package dev.lakeops.deletes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.testing.TableListing;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DeleteLifecycleTest {
  private static final TableIdentifier NAME = TableIdentifier.of("db", "t");
  private static final int FILES = 100;

  @TempDir Path warehouse;
  private HadoopCatalog catalog;

  @BeforeEach
  void createCatalog() {
    catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
  }

  /**
   * 100 data files with 100 position delete files written without {@code file_path} metrics, so
   * every delete file applies to every data file of its partition (as some writers produce them);
   * {@code ThousandDeleteFilesTest} runs 1,000 data files with 1,000 file-scoped delete files.
   */
  @Test
  void manyDataFilesWithAsManyPositionDeleteFilesCompactToZeroDeleteFiles() {
    Table table = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 3, 1).format(FileFormat.PARQUET).build();
    List<DataFile> data = new ArrayList<>();
    AppendFiles append = table.newAppend();
    for (int file = 0; file < FILES; file++) {
      int part = file % 10;
      DataFile written =
          TableFiles.write(
              table,
              SimpleTables.partition(table, part),
              SimpleTables.rows(table.schema(), file * 20L, 20, part));
      data.add(written);
      append.appendFile(written);
    }
    append.commit();
    RowDelta delta = table.newRowDelta();
    for (DataFile file : data) {
      delta.addDeletes(positionDeletes(table, outputs, file, 0, 7));
    }
    delta.commit();
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isEqualTo(FILES * 18);

    CompactionResult result = new TableCompactor().compact(table, CompactionRequest.binpack());

    table.refresh();
    TableHealth after = TableHealthInspector.inspect(table);
    assertThat(after.positionDeleteFiles()).isZero();
    assertThat(after.equalityDeleteFiles()).isZero();
    assertThat(after.dataFiles()).isEqualTo(10);
    assertThat(result.removedDeleteFiles()).isEqualTo(FILES);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
  }

  @Test
  void noDeletionVectorOutlivesItsDataFile() {
    Table table = SimpleTables.create(catalog, NAME.name(), 3, Map.of());
    DataFile first = SimpleTables.append(table, 0, 0, 30);
    DataFile second = SimpleTables.append(table, 0, 100, 30);
    TableFiles.deletionVector(table, first, 4);
    TableFiles.deletionVector(table, second, 5);
    table.newDelete().deleteFile(first).commit();

    new DanglingDeleteRemover().remove(table, false);

    table.refresh();
    assertThat(TableHealthInspector.inspect(table).positionDeleteFiles()).isEqualTo(1);
    assertThat(new DanglingDeleteRemover().remove(table, true).removed().total()).isZero();
    assertThat(RowFingerprint.of(table).rowCount()).isEqualTo(29);
  }

  /**
   * Equality deletes of 150,000 keys under a 64MB budget: more than a quarter of the group's share
   * in Iceberg's in-heap set, so they are resolved to positions by LakeOps' key table (counted
   * against the budget) first; see docs/commits.md and {@code EqualityDeleteSpillTest} for the
   * spilling case.
   */
  @Test
  void largeEqualityDeleteSetCompactsUnderSixtyFourMegabytes() throws IOException {
    Table table = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    PartitionKey partition = SimpleTables.partition(table, 0);
    for (int file = 0; file < 4; file++) {
      TableFiles.append(
          table, partition, SimpleTables.rows(table.schema(), file * 100_000L, 100_000, 0));
    }
    table.newRowDelta().addDeletes(equalityDeletes(table, partition, 0, 150_000)).commit();
    RowFingerprint before = RowFingerprint.of(table);
    assertThat(before.rowCount()).isEqualTo(250_000);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .memoryBudget(ByteSize.parse("64MB"))
                    .options(
                        Map.of("max-concurrent-file-group-rewrites", "1", "min-input-files", "2"))
                    .build());

    table.refresh();
    assertThat(result.removedDeleteFiles()).isEqualTo(1);
    assertThat(TableHealthInspector.inspect(table).equalityDeleteFiles()).isZero();
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(TableListing.unreferencedFiles(table)).isEmpty();
  }

  @Test
  void filesYoungerThanMinAgeAreLeftAlone() {
    Table table = SimpleTables.create(catalog, NAME.name(), 2, Map.of());
    for (int file = 0; file < 6; file++) {
      SimpleTables.append(table, 0, file * 10L, 10);
    }

    CompactionResult young =
        new TableCompactor()
            .compact(table, CompactionRequest.builder().options(Map.of("min-age", "1h")).build());
    CompactionResult any =
        new TableCompactor()
            .compact(table, CompactionRequest.builder().options(Map.of("min-age", "0s")).build());

    assertThat(young.inputFiles()).isZero();
    assertThat(young.snapshotId()).isEmpty();
    assertThat(any.inputFiles()).isEqualTo(6);
  }

  private static DeleteFile positionDeletes(
      Table table, OutputFileFactory outputs, DataFile file, long... positions) {
    try (PositionDeleteWriter<Record> writer =
        Parquet.writeDeletes(outputs.newOutputFile(table.spec(), file.partition()))
            .setAll(table.properties())
            .withSpec(table.spec())
            .withPartition(file.partition())
            .overwrite()
            .buildPositionWriter()) {
      PositionDelete<Record> delete = PositionDelete.create();
      for (long position : positions) {
        writer.write(delete.set(file.location(), position, null));
      }
      writer.close();
      return writer.toDeleteFile();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static DeleteFile equalityDeletes(
      Table table, PartitionKey partition, long firstId, int count) throws IOException {
    org.apache.iceberg.Schema deleteSchema = table.schema().select("id");
    OutputFileFactory outputs =
        OutputFileFactory.builderFor(table, 4, 1).format(FileFormat.PARQUET).build();
    EqualityDeleteWriter<Record> writer =
        Parquet.writeDeletes(outputs.newOutputFile(table.spec(), partition))
            .forTable(table)
            .withSpec(table.spec())
            .withPartition(partition)
            .rowSchema(deleteSchema)
            .equalityFieldIds(1)
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .buildEqualityWriter();
    try (writer) {
      for (long id = firstId; id < firstId + count; id++) {
        GenericRecord row = GenericRecord.create(deleteSchema);
        row.setField("id", id * 2);
        writer.write(row);
      }
    }
    return writer.toDeleteFile();
  }
}
