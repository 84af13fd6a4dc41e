package dev.lakeops.rewrite.copy;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;

import dev.lakeops.testing.ParquetRecords;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.FileAppender;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ParquetProperties.WriterVersion;

/** Writes and reads Parquet files with Iceberg's own generic writer and reader. */
final class ParquetTestFiles {
  static final Schema SCHEMA =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "quantity", Types.IntegerType.get()),
          optional(3, "country", Types.StringType.get()),
          optional(4, "price", Types.DoubleType.get()),
          optional(5, "amount", Types.DecimalType.of(10, 2)),
          optional(6, "day", Types.DateType.get()),
          optional(7, "event_time", Types.TimestampType.withZone()),
          optional(8, "flag", Types.BooleanType.get()),
          optional(9, "payload", Types.BinaryType.get()),
          optional(
              10,
              "location",
              Types.StructType.of(
                  optional(11, "latitude", Types.DoubleType.get()),
                  optional(12, "city", Types.StringType.get()))),
          optional(13, "tags", Types.ListType.ofOptional(14, Types.StringType.get())),
          optional(
              15,
              "attributes",
              Types.MapType.ofOptional(16, 17, Types.StringType.get(), Types.IntegerType.get())),
          optional(18, "big_amount", Types.DecimalType.of(30, 4)),
          optional(19, "small_amount", Types.DecimalType.of(7, 3)));

  private static final String[] COUNTRIES = {
    "NL", "DE", "FR", "BE", "ES", "IT", "PT", "PL", "SE", "NO", "DK", "FI", "AT", "CH", "IE", "GB"
  };
  private static final String[] CITIES = {
    "Amsterdam", "Berlin", "Paris", "Brussels", "Madrid", "Rome"
  };
  private static final String[] TAGS = {
    "red", "green", "blue", "cyan", "magenta", "yellow", "black"
  };

  private ParquetTestFiles() {}

  /** Rows of one input file; the seed shifts the order in which dictionary values first appear. */
  static List<Record> rows(int seed, long firstId, int count) {
    Random random = new Random(seed);
    int shift = seed % COUNTRIES.length;
    List<Record> rows = new ArrayList<>(count);
    for (int index = 0; index < count; index++) {
      long id = firstId + index;
      Record row = GenericRecord.create(SCHEMA);
      row.setField("id", id);
      row.setField("quantity", index % 7 == 0 ? null : random.nextInt(1000));
      row.setField(
          "country",
          index % 11 == 0 ? null : COUNTRIES[(shift + random.nextInt(6)) % COUNTRIES.length]);
      row.setField("price", index % 5 == 0 ? null : random.nextInt(100_000) / 100.0);
      row.setField(
          "amount", index % 9 == 0 ? null : BigDecimal.valueOf(random.nextInt(1_000_000), 2));
      row.setField("day", LocalDate.of(2024, 1, 1).plusDays(random.nextInt(30) + seed));
      row.setField(
          "event_time",
          OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC)
              .plusSeconds(id * 37 + random.nextInt(1000)));
      row.setField("flag", index % 13 == 0 ? null : random.nextBoolean());
      row.setField(
          "payload",
          index % 4 == 0
              ? null
              : ByteBuffer.wrap(("p" + random.nextInt(50)).getBytes(StandardCharsets.UTF_8)));
      row.setField("location", index % 6 == 0 ? null : location(random));
      row.setField("tags", index % 8 == 0 ? null : tags(random));
      row.setField("attributes", index % 10 == 0 ? null : attributes(random));
      row.setField(
          "big_amount",
          index % 3 == 0 ? null : new BigDecimal(random.nextInt(1000) + "123456789012345.0001"));
      row.setField("small_amount", BigDecimal.valueOf(random.nextInt(200), 3));
      rows.add(row);
    }
    return rows;
  }

  /** Rows whose {@code country} values are unique per file, so merged dictionaries grow large. */
  static List<Record> uniqueCountryRows(int seed, long firstId, int count) {
    List<Record> rows = rows(seed, firstId, count);
    for (int index = 0; index < rows.size(); index++) {
      rows.get(index).setField("country", "country-" + seed + "-" + (index % 40));
    }
    return rows;
  }

  static File write(
      File file, List<Record> rows, Map<String, String> properties, WriterVersion version) {
    return write(file, SCHEMA, rows, properties, version);
  }

  static File write(
      File file,
      Schema schema,
      List<Record> rows,
      Map<String, String> properties,
      WriterVersion version) {
    try (FileAppender<Record> appender =
        Parquet.write(Files.localOutput(file))
            .schema(schema)
            .createWriterFunc(
                (icebergSchema, messageType) ->
                    GenericParquetWriter.create(icebergSchema, messageType))
            .set(TableProperties.PARQUET_COMPRESSION, "zstd")
            .setAll(properties)
            .writerVersion(version)
            .build()) {
      appender.addAll(rows);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return file;
  }

  static File write(File file, List<Record> rows) {
    return write(file, rows, Map.of(), WriterVersion.PARQUET_1_0);
  }

  static List<Record> read(File file) {
    return ParquetRecords.read(file, SCHEMA);
  }

  private static Record location(Random random) {
    Record location = GenericRecord.create(SCHEMA.findType("location").asStructType());
    location.setField("latitude", random.nextInt(90_000) / 1000.0);
    location.setField(
        "city", random.nextInt(5) == 0 ? null : CITIES[random.nextInt(CITIES.length)]);
    return location;
  }

  private static List<String> tags(Random random) {
    int size = random.nextInt(4);
    List<String> tags = new ArrayList<>(size);
    for (int index = 0; index < size; index++) {
      tags.add(random.nextInt(9) == 0 ? null : TAGS[random.nextInt(TAGS.length)]);
    }
    return tags;
  }

  private static Map<String, Integer> attributes(Random random) {
    int size = random.nextInt(3);
    Map<String, Integer> attributes = new HashMap<>();
    for (int index = 0; index < size; index++) {
      attributes.put(
          "key" + random.nextInt(5), random.nextInt(3) == 0 ? null : random.nextInt(100));
    }
    return attributes;
  }
}
