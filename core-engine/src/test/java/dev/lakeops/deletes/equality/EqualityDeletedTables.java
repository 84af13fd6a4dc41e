package dev.lakeops.deletes.equality;

import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;

/**
 * A {@link SimpleTables} table {@code db.t} carrying equality deletes on two columns, overlapping
 * position deletes (v2) or a deletion vector (v3), for the conversion tests of the core and of the
 * command line.
 */
public final class EqualityDeletedTables {
  private EqualityDeletedTables() {}

  /**
   * Partition 0: two files; {@code idDeletes} even ids deleted by {@code id}; a file written after
   * that delete repeating ids 0..999 (which keeps them); {@code data} values deleted afterwards;
   * position deletes (v2) or a deletion vector (v3) on the first file, overlapping the equality
   * deletes (row 2). Partition 1: one file and one equality delete on {@code id}.
   */
  public static Table create(Catalog catalog, int formatVersion, int idDeletes) {
    Table table = SimpleTables.create(catalog, "t", formatVersion, Map.of());
    PartitionKey partition = SimpleTables.partition(table, 0);
    DataFile first =
        TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 0, 60_000, 0));
    TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 60_000, 60_000, 0));
    EqualityDeleteFiles.commit(table, partition, "id", idDeletes, index -> index * 2);
    TableFiles.append(table, partition, SimpleTables.rows(table.schema(), 0, 1_000, 0));
    EqualityDeleteFiles.commit(table, partition, "data", 3_000, index -> "row-" + (index * 3));
    if (formatVersion >= 3) {
      TableFiles.deletionVector(table, first, 1, 2, 3);
    } else {
      TableFiles.deletePositions(table, first, 1, 2, 3);
    }
    PartitionKey other = SimpleTables.partition(table, 1);
    TableFiles.append(table, other, SimpleTables.rows(table.schema(), 500_000, 1_000, 1));
    EqualityDeleteFiles.commit(table, other, "id", 10, index -> 500_000L + index);
    return table;
  }
}
