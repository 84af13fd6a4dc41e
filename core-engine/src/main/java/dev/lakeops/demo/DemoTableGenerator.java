package dev.lakeops.demo;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.OutputFileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Random;
import org.apache.iceberg.AppendFiles;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;

/**
 * Creates a fragmented table the way a streaming writer leaves one: many small Parquet files,
 * written by Iceberg's own writers, each commit appending a handful.
 */
public final class DemoTableGenerator {
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "event_id", Types.LongType.get()),
          Types.NestedField.optional(2, "user_id", Types.LongType.get()),
          Types.NestedField.optional(3, "country", Types.StringType.get()),
          Types.NestedField.optional(4, "event_type", Types.StringType.get()),
          Types.NestedField.optional(5, "amount", Types.DoubleType.get()),
          Types.NestedField.optional(6, "ts", Types.TimestampType.withZone()),
          Types.NestedField.optional(7, "day", Types.DateType.get()),
          Types.NestedField.optional(8, "payload", Types.StringType.get()));

  private static final String[] COUNTRIES = {
    "NL", "BE", "DE", "FR", "US", "GB", "ES", "IT", "PL", "SE"
  };
  private static final String[] EVENT_TYPES = {"view", "click", "purchase", "signup", "logout"};

  private final Catalog catalog;

  public DemoTableGenerator(Catalog catalog) {
    this.catalog = requireNonNull(catalog, "catalog is null");
  }

  /**
   * Creates {@code identifier} partitioned by {@code day} (over {@code days} days) and writes
   * {@code files} files of {@code rowsPerFile} rows each, {@code filesPerCommit} per commit.
   */
  public Table create(
      TableIdentifier identifier,
      int formatVersion,
      int days,
      int files,
      int rowsPerFile,
      int filesPerCommit) {
    if (catalog instanceof SupportsNamespaces namespaces
        && !namespaces.namespaceExists(identifier.namespace())
        && !identifier.namespace().isEmpty()) {
      namespaces.createNamespace(identifier.namespace());
    }
    PartitionSpec spec =
        days > 0
            ? PartitionSpec.builderFor(SCHEMA).identity("day").build()
            : PartitionSpec.unpartitioned();
    Table table =
        catalog.createTable(
            identifier,
            SCHEMA,
            spec,
            Map.of(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion)));
    append(table, days, files, rowsPerFile, filesPerCommit, 42L);
    return table;
  }

  /** Appends {@code files} more small files with rows derived from {@code seed}. */
  public static void append(
      Table table, int days, int files, int rowsPerFile, int filesPerCommit, long seed) {
    Random random = new Random(seed);
    OutputFileFactory outputFiles =
        OutputFileFactory.builderFor(table, 1, seed).format(FileFormat.PARQUET).build();
    LocalDate firstDay = LocalDate.of(2026, 11, 1);
    long eventId = seed * 1_000_000_000L;
    AppendFiles append = table.newAppend();
    int pending = 0;
    for (int file = 0; file < files; file++) {
      LocalDate day = days > 0 ? firstDay.plusDays(file % days) : firstDay;
      GenericRecord template = GenericRecord.create(table.schema());
      PartitionKey partition = new PartitionKey(table.spec(), table.schema());
      template.setField("day", day);
      partition.partition(new InternalRecordWrapper(table.schema().asStruct()).wrap(template));
      try (DataWriter<Record> writer =
          Parquet.writeData(OutputFileNames.newOutputFile(outputFiles, table.spec(), partition))
              .forTable(table)
              .withSpec(table.spec())
              .withPartition(table.spec().isUnpartitioned() ? null : partition)
              .createWriterFunc(GenericParquetWriter::create)
              .overwrite()
              .build()) {
        for (int row = 0; row < rowsPerFile; row++) {
          writer.write(randomRow(table.schema(), random, eventId++, day));
        }
        writer.close();
        DataFile dataFile = writer.toDataFile();
        append.appendFile(dataFile);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot write demo data for " + table.name(), e);
      }
      pending++;
      if (pending == filesPerCommit) {
        append.commit();
        append = table.newAppend();
        pending = 0;
      }
    }
    if (pending > 0) {
      append.commit();
    }
  }

  private static Record randomRow(Schema schema, Random random, long eventId, LocalDate day) {
    GenericRecord row = GenericRecord.create(schema);
    row.setField("event_id", eventId);
    row.setField("user_id", random.nextInt(10) == 0 ? null : (long) random.nextInt(100_000));
    row.setField("country", COUNTRIES[random.nextInt(COUNTRIES.length)]);
    row.setField("event_type", EVENT_TYPES[random.nextInt(EVENT_TYPES.length)]);
    row.setField("amount", Math.round(random.nextDouble() * 100_000) / 100.0);
    row.setField(
        "ts",
        OffsetDateTime.of(day.atStartOfDay(), ZoneOffset.UTC).plusSeconds(random.nextInt(86_400)));
    row.setField("day", day);
    row.setField("payload", "session-" + Long.toHexString(random.nextLong()));
    return row;
  }
}
