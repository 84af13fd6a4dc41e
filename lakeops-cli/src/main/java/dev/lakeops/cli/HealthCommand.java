package dev.lakeops.cli;

import dev.lakeops.health.HealthCriteria;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.health.TableHealthReport;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "health",
    description =
        "Show a table's layout health from metadata only: file sizes, small files, delete files, manifests,"
            + " snapshots, and the health score with its parts.",
    mixinStandardHelpOptions = true)
final class HealthCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(
      names = "--policy",
      paramLabel = "FILE",
      description = "Measure against this policy file's thresholds (default: the built-in policy).")
  Path policyFile;

  @Option(names = "--partitions", description = "Also show every partition's figures.")
  boolean partitions;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    PolicyFile file = policyFile == null ? PolicyFile.empty() : PolicyFile.load(policyFile);
    Table loaded = catalog.loadTable(table);
    HealthCriteria criteria =
        new PolicyResolver(file)
            .resolve(TableIdentifier.parse(table), loaded.properties())
            .healthCriteria();
    TableHealthReport report = TableHealthInspector.report(loaded, criteria);
    Instant now = Instant.now();
    System.out.println(
        json
            ? JsonOutput.write(HealthReports.json(loaded.name(), report, partitions, now))
            : HealthReports.human(
                loaded.name(), report, criteria.smallFileRule().ratio(), partitions, now));
    return 0;
  }
}
