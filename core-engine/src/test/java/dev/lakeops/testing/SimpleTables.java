package dev.lakeops.testing;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * A small table {@code (id long, part int, data string)}, partitioned by {@code part}, for tests.
 */
public final class SimpleTables {
  public static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.required(2, "part", Types.IntegerType.get()),
          Types.NestedField.optional(3, "data", Types.StringType.get()));

  private SimpleTables() {}

  public static Table create(
      Catalog catalog, String name, int formatVersion, Map<String, String> properties) {
    Map<String, String> all = new java.util.HashMap<>(properties);
    all.put(TableProperties.FORMAT_VERSION, String.valueOf(formatVersion));
    return catalog.createTable(
        TableIdentifier.of("db", name),
        SCHEMA,
        PartitionSpec.builderFor(SCHEMA).identity("part").build(),
        all);
  }

  public static Record row(Schema schema, long id, int part) {
    GenericRecord record = GenericRecord.create(schema);
    record.setField("id", id);
    record.setField("part", part);
    record.setField("data", "row-" + id);
    return record;
  }

  public static List<Record> rows(Schema schema, long firstId, int count, int part) {
    List<Record> rows = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      rows.add(row(schema, firstId + index, part));
    }
    return rows;
  }

  public static PartitionKey partition(Table table, int part) {
    PartitionKey key = new PartitionKey(table.spec(), table.schema());
    key.partition(row(table.schema(), 0, part));
    return key;
  }

  /** Writes and appends one file of {@code count} rows with ids from {@code firstId}. */
  public static DataFile append(Table table, int part, long firstId, int count) {
    return TableFiles.append(
        table, partition(table, part), rows(table.schema(), firstId, count, part));
  }
}
