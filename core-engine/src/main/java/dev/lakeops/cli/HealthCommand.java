package dev.lakeops.cli;

import dev.lakeops.health.TableHealth;
import dev.lakeops.health.TableHealthInspector;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "health",
    description = "Show a table's layout health: file sizes, small files, delete files, snapshots.",
    mixinStandardHelpOptions = true)
final class HealthCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    Table loaded = catalog.loadTable(table);
    TableHealth health = TableHealthInspector.inspect(loaded);
    System.out.println(
        json ? JsonOutput.write(HealthReports.json(loaded.name(), health)) : HealthReports.human(loaded.name(), health));
    return 0;
  }
}
