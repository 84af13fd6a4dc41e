package dev.lakeops.spark;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.ProcedureCatalog;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The catalog that answers {@code CALL lakeops.<procedure>(...)}. Register it with {@code
 * spark.sql.catalog.lakeops=dev.lakeops.spark.LakeOpsProcedureCatalog}; it holds no tables, only
 * procedures, each of which names its table in a configured Iceberg catalog.
 */
public final class LakeOpsProcedureCatalog implements ProcedureCatalog {
  private static final Map<String, Supplier<UnboundProcedure>> PROCEDURES =
      Map.of(
          CompactProcedure.NAME, CompactProcedure::new,
          ExpireSnapshotsProcedure.NAME, ExpireSnapshotsProcedure::new,
          RemoveOrphanFilesProcedure.NAME, RemoveOrphanFilesProcedure::new,
          RewriteManifestsProcedure.NAME, RewriteManifestsProcedure::new,
          MaintainProcedure.NAME, MaintainProcedure::new,
          HealthProcedure.NAME, HealthProcedure::new);

  private String name = "lakeops";

  @Override
  public void initialize(String catalogName, CaseInsensitiveStringMap options) {
    this.name = catalogName;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public UnboundProcedure loadProcedure(Identifier identifier) {
    String procedure = identifier.name().toLowerCase(Locale.ROOT);
    Supplier<UnboundProcedure> factory = PROCEDURES.get(procedure);
    if (factory == null || !isProcedureNamespace(identifier.namespace())) {
      throw new IllegalArgumentException(
          "Unknown procedure '"
              + name
              + "."
              + String.join(".", identifier.namespace())
              + (identifier.namespace().length == 0 ? "" : ".")
              + identifier.name()
              + "': available procedures are "
              + String.join(", ", new TreeSet<>(PROCEDURES.keySet())));
    }
    return factory.get();
  }

  @Override
  public Identifier[] listProcedures(String[] namespace) {
    if (!isProcedureNamespace(namespace)) {
      return new Identifier[0];
    }
    return new TreeSet<>(PROCEDURES.keySet())
        .stream()
            .map(procedure -> Identifier.of(new String[0], procedure))
            .toArray(Identifier[]::new);
  }

  /** Procedures live at the root; {@code system} is accepted too, as Iceberg users type it. */
  private static boolean isProcedureNamespace(String[] namespace) {
    return namespace.length == 0 || Arrays.equals(namespace, new String[] {"system"});
  }
}
