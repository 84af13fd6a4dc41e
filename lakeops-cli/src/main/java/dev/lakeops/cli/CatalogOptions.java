package dev.lakeops.cli;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.catalog.TableResolver;
import dev.lakeops.ledger.RunHost;
import dev.lakeops.operation.call.RunSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import picocli.CommandLine.Option;

/** The catalog options every table command shares. */
final class CatalogOptions {
  @Option(
      names = "--warehouse",
      paramLabel = "DIR",
      description =
          "Local warehouse directory: the embedded default catalog (Hadoop tables on disk).")
  Path warehouse;

  @Option(
      names = "-C",
      paramLabel = "KEY=VALUE",
      description =
          "Iceberg catalog property, repeatable: -C type=rest -C uri=http://..., -C type=jdbc -C uri=jdbc:...")
  Map<String, String> properties = new LinkedHashMap<>();

  @Option(
      names = "--catalog-config",
      paramLabel = "FILE",
      description = "A properties file of Iceberg catalog properties (same keys as -C).")
  Path configFile;

  Catalog connect() {
    CatalogSettings settings = settings();
    return CatalogConnector.connect(settings, CommandLineHadoop.configurationFor(settings));
  }

  /** Whether any catalog flag was given. */
  boolean hasCatalog() {
    return warehouse != null || configFile != null || !properties.isEmpty();
  }

  CatalogSettings settings() {
    return CatalogSettings.from(
        Optional.ofNullable(configFile), Optional.ofNullable(warehouse), properties);
  }

  /** Loads table {@code name}; a missing {@code --warehouse} directory is named as such. */
  /** Runs on {@code table} of this catalog that no run ledger records. */
  RunSettings unrecorded(String table) {
    return RunSettings.unrecorded(RunHost.CLI, settings().name(), table);
  }

  Table loadTable(String name) {
    if (warehouse != null
        && configFile == null
        && !properties.containsKey("warehouse")
        && !Files.isDirectory(warehouse)) {
      throw new IllegalArgumentException(
          "Warehouse "
              + warehouse.toAbsolutePath()
              + " does not exist: pass the directory that holds the tables with --warehouse");
    }
    return new TableResolver(connect()).load(name);
  }
}
