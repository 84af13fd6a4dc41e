package dev.lakeops.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The footers of a table's live data files, read with parquet-java's {@link ParquetFileReader} (not
 * with the code under test): codecs and repetitions as the files hold them.
 */
public final class ParquetFooters {
  private ParquetFooters() {}

  /** The table's live data files, with column statistics. */
  public static List<DataFile> dataFiles(Table table) {
    List<DataFile> files = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().includeColumnStats().planFiles()) {
      for (FileScanTask task : tasks) {
        files.add(task.file());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return files;
  }

  public static ParquetMetadata footer(Table table, DataFile file) {
    try (ParquetFileReader reader =
        ParquetFileReader.open(new ParquetInputFile(table.io().newInputFile(file)))) {
      return reader.getFooter();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The codecs of every column chunk of the table's live data files, e.g. {@code [ZSTD]}. */
  public static Set<String> codecs(Table table) {
    Set<String> codecs = new TreeSet<>();
    for (DataFile file : dataFiles(table)) {
      for (BlockMetaData block : footer(table, file).getBlocks()) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          codecs.add(chunk.getCodec().name());
        }
      }
    }
    return codecs;
  }

  /** The Parquet repetitions of a top-level column across the table's live data files. */
  public static Set<String> repetitions(Table table, String column) {
    Set<String> repetitions = new TreeSet<>();
    for (DataFile file : dataFiles(table)) {
      repetitions.add(
          footer(table, file).getFileMetaData().getSchema().getType(column).getRepetition().name());
    }
    return repetitions;
  }

  /** Values of the {@code created_by} footer field across the table's live data files. */
  public static Set<String> createdBy(Table table) {
    Set<String> writers = new TreeSet<>();
    for (DataFile file : dataFiles(table)) {
      writers.add(String.valueOf(footer(table, file).getFileMetaData().getCreatedBy()));
    }
    return writers;
  }

  /** An Iceberg input file as a Parquet one. */
  private record ParquetInputFile(org.apache.iceberg.io.InputFile file) implements InputFile {
    @Override
    public long getLength() {
      return file.getLength();
    }

    @Override
    public SeekableInputStream newStream() {
      org.apache.iceberg.io.SeekableInputStream stream = file.newStream();
      return new DelegatingSeekableInputStream(stream) {
        @Override
        public long getPos() throws IOException {
          return stream.getPos();
        }

        @Override
        public void seek(long position) throws IOException {
          stream.seek(position);
        }
      };
    }
  }
}
