package dev.lakeops.trino.connector;

import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_CATALOG_ERROR;
import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_TABLE_NOT_FOUND;
import static java.util.Objects.requireNonNull;

import com.google.inject.Inject;
import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.catalog.RootCause;
import dev.lakeops.trino.redact.SecretRedactor;
import io.airlift.log.Logger;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import java.io.Closeable;
import java.io.IOException;
import java.util.Optional;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchNamespaceException;
import org.apache.iceberg.exceptions.NoSuchTableException;

/**
 * The Iceberg catalog this connector serves, connected on first use (so that a catalog that is down
 * when Trino starts fails the CALL, not the server) and kept for the connector's lifetime.
 */
public final class IcebergTables implements Closeable {
  private static final Logger log = Logger.get(IcebergTables.class);
  private static final String JDBC_CATALOG = "org.apache.iceberg.jdbc.JdbcCatalog";

  private final CatalogSettings settings;
  private final SecretRedactor redactor;
  private Catalog catalog;

  @Inject
  public IcebergTables(
      LakeOpsConfig config,
      RestCatalogSecurityConfig restSecurity,
      S3FileSystemConfig s3,
      CatalogBinding binding) {
    requireNonNull(config, "config is null");
    requireNonNull(binding, "binding is null");
    this.settings =
        IcebergCatalogProperties.settings(
            binding.trinoCatalogName(), config, restSecurity, s3, binding.passThrough());
    this.redactor = SecretRedactor.forProperties(settings.properties());
  }

  /**
   * Masks this catalog's credentials in messages; every error raised to a query user passes through
   * it.
   */
  public SecretRedactor redactor() {
    return redactor;
  }

  public CatalogSettings settings() {
    return settings;
  }

  /**
   * Connects to a JDBC catalog now, when the connector starts: Iceberg Java creates the catalog's
   * tables ({@code iceberg_tables}, {@code iceberg_namespace_properties}) when they are missing,
   * which Trino's Iceberg connector expects to exist but never creates itself. So on a fresh
   * catalog database the first statement a user runs through Trino works. A catalog that cannot be
   * reached now is logged, and connected on first use as any other.
   */
  public void connectJdbcCatalogAtStartup() {
    if (!JDBC_CATALOG.equals(settings.properties().get(CatalogProperties.CATALOG_IMPL))) {
      return;
    }
    try {
      catalog();
    } catch (TrinoException e) {
      log.warn(
          "Iceberg catalog '%s' is not reachable at startup; procedures connect on first use: %s",
          settings.name(), e.getMessage());
    }
  }

  /** Loads a table; a missing schema or table is a user error naming both. */
  public Table load(SchemaTableName name) {
    requireNonNull(name, "name is null");
    try {
      return catalog().loadTable(TableIdentifier.of(name.getSchemaName(), name.getTableName()));
    } catch (NoSuchTableException | NoSuchNamespaceException e) {
      throw redactor.redact(
          new TrinoException(
              LAKEOPS_TABLE_NOT_FOUND,
              "Table " + name + " not found in Iceberg catalog '" + settings.name() + "'",
              e));
    } catch (TrinoException e) {
      throw redactor.redact(e);
    } catch (RuntimeException e) {
      throw redactor.redact(
          new TrinoException(
              LAKEOPS_CATALOG_ERROR,
              "Cannot load table "
                  + name
                  + " from Iceberg catalog '"
                  + settings.name()
                  + "': "
                  + RootCause.message(e),
              e));
    }
  }

  /** Loads a table, or nothing when its schema or the table does not exist. */
  public Optional<Table> find(SchemaTableName name) {
    try {
      return Optional.of(load(name));
    } catch (TrinoException e) {
      if (e.getErrorCode().equals(LAKEOPS_TABLE_NOT_FOUND.toErrorCode())) {
        return Optional.empty();
      }
      throw e;
    }
  }

  /** Whether the Iceberg catalog has this namespace; false when it cannot list namespaces. */
  public boolean namespaceExists(String schemaName) {
    requireNonNull(schemaName, "schemaName is null");
    try {
      return catalog() instanceof SupportsNamespaces namespaces
          && namespaces.namespaceExists(Namespace.of(schemaName));
    } catch (TrinoException e) {
      throw redactor.redact(e);
    } catch (RuntimeException e) {
      throw redactor.redact(
          new TrinoException(
              LAKEOPS_CATALOG_ERROR,
              "Cannot look up schema "
                  + schemaName
                  + " in Iceberg catalog '"
                  + settings.name()
                  + "': "
                  + RootCause.message(e),
              e));
    }
  }

  private synchronized Catalog catalog() {
    if (catalog == null) {
      try {
        catalog = CatalogConnector.connect(settings);
      } catch (RuntimeException e) {
        throw redactor.redact(new TrinoException(LAKEOPS_CATALOG_ERROR, e.getMessage(), e));
      }
    }
    return catalog;
  }

  @Override
  public synchronized void close() {
    if (catalog instanceof Closeable closeable) {
      try {
        closeable.close();
      } catch (IOException e) {
        // shutting down: nothing left to do with the catalog
      }
    }
    catalog = null;
  }
}
