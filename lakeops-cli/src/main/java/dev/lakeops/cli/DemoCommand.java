package dev.lakeops.cli;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(
    name = "demo",
    description =
        "Create a fragmented demo table in a local warehouse, show its health, compact it and prove"
            + " the rows unchanged.",
    mixinStandardHelpOptions = true,
    defaultValueProvider = ContractDefaultValues.class)
final class DemoCommand implements Callable<Integer> {
  private static final TableIdentifier DEMO_TABLE = TableIdentifier.of("demo", "events");

  @Option(
      names = "--warehouse",
      paramLabel = "DIR",
      defaultValue = "lakeops-demo-warehouse",
      description = "Local warehouse to create the demo table in (default: ${DEFAULT-VALUE}).")
  Path warehouse;

  @Option(
      names = "--files",
      defaultValue = "400",
      description = "Small files to write (default: ${DEFAULT-VALUE}).")
  int files;

  @Option(
      names = "--rows-per-file",
      defaultValue = "2500",
      description = "Rows per file (default: ${DEFAULT-VALUE}).")
  int rowsPerFile;

  @Option(
      names = "--format-version",
      defaultValue = "2",
      description = "Iceberg format version (default: ${DEFAULT-VALUE}).")
  int formatVersion;

  @Option(
      names = "--memory",
      paramLabel = "SIZE",
      description = "Memory budget (default: ${DEFAULT-VALUE}).")
  String memory;

  @Override
  public Integer call() {
    Catalog catalog =
        CatalogConnector.connect(
            CatalogSettings.from(Optional.empty(), Optional.of(warehouse), Map.of()));
    if (catalog.tableExists(DEMO_TABLE)) {
      catalog.dropTable(DEMO_TABLE, true);
    }
    System.out.printf(
        "Writing %,d small files of %,d rows into %s at %s ...%n",
        files, rowsPerFile, DEMO_TABLE, warehouse.toAbsolutePath());
    Table table =
        new DemoTableGenerator(catalog)
            .create(DEMO_TABLE, formatVersion, 10, files, rowsPerFile, 20);
    System.out.println();
    System.out.println(
        "Before: " + HealthReports.human(table.name(), TableHealthInspector.inspect(table)));
    RowFingerprint before = RowFingerprint.of(table);
    System.out.println();
    CompactionResult result;
    try (ProgressBarListener progress = new ProgressBarListener()) {
      result =
          new TableCompactor(progress)
              .compact(
                  table, CompactionRequest.builder().memoryBudget(ByteSize.parse(memory)).build());
    }
    System.out.println(CompactionReports.human(result));
    table.refresh();
    System.out.println();
    System.out.println(
        "After:  " + HealthReports.human(table.name(), TableHealthInspector.inspect(table)));
    RowFingerprint after = RowFingerprint.of(table);
    System.out.println();
    System.out.printf(
        "Rows before: %,d (checksum %016x)%nRows after:  %,d (checksum %016x)%n",
        before.rowCount(), before.checksum(), after.rowCount(), after.checksum());
    if (!before.equals(after)) {
      System.out.println("ROWS CHANGED: this is a bug, please report it.");
      return 3;
    }
    System.out.println("Rows unchanged: identical count and checksum over every column.");
    return 0;
  }
}
