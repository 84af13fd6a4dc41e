package dev.lakeops.bench;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import dev.lakeops.rewrite.copy.MergeResult;
import dev.lakeops.rewrite.copy.MergeSettings;
import dev.lakeops.rewrite.copy.ParquetFileMerger;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * The decode-free merge throughput check: merges many small zstd Parquet files with {@link
 * ParquetFileMerger} and prints MB/s next to {@code cp} of the same files, round by round. The
 * report, written by hand from its output, is {@code docs/benchmarks/merge-vs-cp.md}.
 *
 * <p>Arguments: {@code <directory> [files] [rowsPerFile] [rounds]}. The generated files are kept in
 * {@code <directory>/input} and reused.
 */
public final class MergeThroughputBenchmark {
  private static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "event_time", Types.TimestampType.withZone()),
          optional(3, "country", Types.StringType.get()),
          optional(4, "city", Types.StringType.get()),
          optional(5, "price", Types.DoubleType.get()),
          optional(6, "quantity", Types.IntegerType.get()),
          optional(7, "note", Types.StringType.get()));
  private static final String[] COUNTRIES = {
    "NL", "DE", "FR", "BE", "ES", "IT", "PT", "PL", "SE", "NO"
  };

  private MergeThroughputBenchmark() {}

  public static void main(String[] arguments) throws Exception {
    File directory = new File(arguments.length > 0 ? arguments[0] : "/tmp/lakeops-merge-benchmark");
    int fileCount = arguments.length > 1 ? Integer.parseInt(arguments[1]) : 400;
    int rowsPerFile = arguments.length > 2 ? Integer.parseInt(arguments[2]) : 40_000;
    int rounds = arguments.length > 3 ? Integer.parseInt(arguments[3]) : 3;
    File inputDirectory = new File(directory, "input");
    List<File> files = generate(inputDirectory, fileCount, rowsPerFile);
    long inputBytes = 0;
    for (File file : files) {
      inputBytes += file.length();
    }
    System.out.printf(
        Locale.ROOT,
        "%d files, %.1f MB, %d rows each%n",
        files.size(),
        megabytes(inputBytes),
        rowsPerFile);
    for (int round = 0; round < rounds; round++) {
      File copyDirectory = new File(directory, "copy");
      deleteRecursively(copyDirectory);
      long copyStart = System.nanoTime();
      Process copy =
          new ProcessBuilder("cp", "-r", inputDirectory.getPath(), copyDirectory.getPath())
              .inheritIO()
              .start();
      if (copy.waitFor() != 0) {
        throw new IOException("cp failed");
      }
      double copySeconds = (System.nanoTime() - copyStart) / 1e9;

      File output = new File(directory, "merged.parquet");
      if (output.exists() && !output.delete()) {
        throw new IOException("Cannot delete " + output);
      }
      List<InputFile> inputs = new ArrayList<>();
      for (File file : files) {
        inputs.add(Files.localInput(file));
      }
      long mergeStart = System.nanoTime();
      MergeResult result =
          ParquetFileMerger.forIcebergSchema(SCHEMA)
              .merge(inputs, Files.localOutput(output), MergeSettings.defaults());
      double mergeSeconds = (System.nanoTime() - mergeStart) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "round %d: merge %.2f s = %.0f MB/s (%d rows, %d row groups, %.1f MB out, %.1f MB verbatim, %.1f MB rewritten,"
              + " %d merged dictionaries, %d plain fallbacks) | cp %.2f s = %.0f MB/s%n",
          round,
          mergeSeconds,
          megabytes(inputBytes) / mergeSeconds,
          result.rowCount(),
          result.rowGroupsWritten(),
          megabytes(result.outputLength()),
          megabytes(result.bytesCopiedVerbatim()),
          megabytes(result.bytesRewritten()),
          result.columnChunksWithMergedDictionary(),
          result.columnChunksWithPlainFallback(),
          copySeconds,
          megabytes(inputBytes) / copySeconds);
    }
  }

  private static List<File> generate(File directory, int fileCount, int rowsPerFile) {
    List<File> files = new ArrayList<>();
    if (!directory.isDirectory() && !directory.mkdirs()) {
      throw new UncheckedIOException(new IOException("Cannot create " + directory));
    }
    for (int index = 0; index < fileCount; index++) {
      File file = new File(directory, String.format(Locale.ROOT, "part-%05d.parquet", index));
      if (!file.exists()) {
        write(file, index, rowsPerFile);
      }
      files.add(file);
    }
    return files;
  }

  private static void write(File file, int seed, int rows) {
    Random random = new Random(seed);
    try (FileAppender<Record> appender =
        Parquet.write(Files.localOutput(file))
            .schema(SCHEMA)
            .createWriterFunc(
                (icebergSchema, messageType) ->
                    GenericParquetWriter.create(icebergSchema, messageType))
            .setAll(Map.of(TableProperties.PARQUET_COMPRESSION, "zstd"))
            .build()) {
      Record row = GenericRecord.create(SCHEMA);
      java.time.OffsetDateTime start =
          java.time.OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, java.time.ZoneOffset.UTC);
      for (int index = 0; index < rows; index++) {
        long id = (long) seed * rows + index;
        row.setField("id", id);
        row.setField("event_time", start.plusSeconds(id + random.nextInt(60)));
        row.setField("country", COUNTRIES[(seed + random.nextInt(4)) % COUNTRIES.length]);
        row.setField("city", "city-" + random.nextInt(200));
        row.setField("price", random.nextInt(100_000) / 100.0);
        row.setField("quantity", random.nextInt(50));
        row.setField("note", random.nextInt(10) == 0 ? null : "note-" + random.nextInt(1_000_000));
        appender.add(row.copy());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void deleteRecursively(File file) {
    File[] children = java.nio.file.Files.isSymbolicLink(file.toPath()) ? null : file.listFiles();
    if (children != null) {
      for (File child : children) {
        deleteRecursively(child);
      }
    }
    if (file.exists() && !file.delete()) {
      throw new UncheckedIOException(new IOException("Cannot delete " + file));
    }
  }

  private static double megabytes(long bytes) {
    return bytes / (1024.0 * 1024.0);
  }
}
