package dev.lakeops.trino.system;

import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_FILESYSTEM_ERROR;
import static io.trino.spi.type.BigintType.BIGINT;
import static io.trino.spi.type.DoubleType.DOUBLE;
import static java.util.Objects.requireNonNull;

import dev.lakeops.catalog.RootCause;
import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.trino.redact.SecretRedactor;
import io.trino.spi.TrinoException;
import io.trino.spi.classloader.ThreadContextClassLoader;
import io.trino.spi.connector.ColumnMetadata;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.connector.ConnectorSplit;
import io.trino.spi.connector.ConnectorTableMetadata;
import io.trino.spi.connector.ConnectorTransactionHandle;
import io.trino.spi.connector.InMemoryRecordSet;
import io.trino.spi.connector.RecordCursor;
import io.trino.spi.connector.SchemaTableName;
import io.trino.spi.connector.SystemTable;
import io.trino.spi.predicate.TupleDomain;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.Table;

/**
 * {@code SELECT * FROM lakeops.db."t$health"}: one row with the layout health of table {@code t},
 * read from its current snapshot's metadata. Column names are those of {@code lakeops health
 * --json}. Reading it requires the right to select from {@code t}.
 */
public final class HealthSystemTable implements SystemTable {
  public static final String SUFFIX = "health";

  private static final List<ColumnMetadata> COLUMNS =
      List.of(
          new ColumnMetadata("data_files", BIGINT),
          new ColumnMetadata("data_bytes", BIGINT),
          new ColumnMetadata("small_data_files", BIGINT),
          new ColumnMetadata("small_file_ratio", DOUBLE),
          new ColumnMetadata("average_file_bytes", BIGINT),
          new ColumnMetadata("target_file_size_bytes", BIGINT),
          new ColumnMetadata("position_delete_files", BIGINT),
          new ColumnMetadata("equality_delete_files", BIGINT),
          new ColumnMetadata("partitions", BIGINT),
          new ColumnMetadata("snapshots", BIGINT),
          new ColumnMetadata("records", BIGINT));

  private final ConnectorTableMetadata metadata;
  private final SchemaTableName baseTable;
  private final Table table;

  private final SecretRedactor redactor;

  public HealthSystemTable(
      SchemaTableName name, SchemaTableName baseTable, Table table, SecretRedactor redactor) {
    this.redactor = requireNonNull(redactor, "redactor is null");
    this.metadata = new ConnectorTableMetadata(requireNonNull(name, "name is null"), COLUMNS);
    this.baseTable = requireNonNull(baseTable, "baseTable is null");
    this.table = requireNonNull(table, "table is null");
  }

  @Override
  public Distribution getDistribution() {
    return Distribution.SINGLE_COORDINATOR;
  }

  @Override
  public ConnectorTableMetadata getTableMetadata() {
    return metadata;
  }

  @Override
  public RecordCursor cursor(
      ConnectorTransactionHandle transactionHandle,
      ConnectorSession session,
      TupleDomain<Integer> constraint,
      Set<Integer> requiredColumns,
      ConnectorSplit split,
      ConnectorAccessControl accessControl) {
    accessControl.checkCanSelectFromColumns(null, baseTable, Set.of());
    TableHealth health = inspect();
    return InMemoryRecordSet.builder(metadata)
        .addRow(
            health.dataFiles(),
            health.dataBytes(),
            health.smallDataFiles(),
            health.smallFileRatio(),
            health.averageFileBytes(),
            health.targetFileSizeBytes(),
            health.positionDeleteFiles(),
            health.equalityDeleteFiles(),
            health.partitions(),
            health.snapshots(),
            health.records())
        .build()
        .cursor();
  }

  private TableHealth inspect() {
    try (ThreadContextClassLoader ignored =
        new ThreadContextClassLoader(getClass().getClassLoader())) {
      return TableHealthInspector.inspect(table);
    } catch (UncheckedIOException e) {
      throw redactor.redact(
          new TrinoException(
              LAKEOPS_FILESYSTEM_ERROR,
              "Cannot read the metadata of " + baseTable + ": " + RootCause.message(e),
              e));
    }
  }
}
