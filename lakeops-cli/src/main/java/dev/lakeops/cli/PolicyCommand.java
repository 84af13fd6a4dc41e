package dev.lakeops.cli;

import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(
    name = "policy",
    description =
        "Show a table's effective maintenance policy and where each value came from (default, catalog,"
            + " namespace, table, table property).",
    mixinStandardHelpOptions = true)
final class PolicyCommand implements Callable<Integer> {
  @Parameters(index = "0", paramLabel = "<namespace.table>")
  String table;

  @Mixin CatalogOptions catalog;

  @Option(
      names = "--policy",
      paramLabel = "FILE",
      description = "The policy file (YAML) lakeops serve uses.")
  Path policyFile;

  @Option(names = "--json", description = "Print one JSON object on stdout.")
  boolean json;

  @Override
  public Integer call() {
    PolicyFile file = policyFile == null ? PolicyFile.empty() : PolicyFile.load(policyFile);
    Table loaded = catalog.loadTable(table);
    TableIdentifier identifier = TableIdentifier.parse(table);
    EffectivePolicy policy = new PolicyResolver(file).resolve(identifier, loaded.properties());
    System.out.println(
        json
            ? JsonOutput.write(PolicyReports.json(policy, file))
            : PolicyReports.human(policy, file));
    return 0;
  }
}
