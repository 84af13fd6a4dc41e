package dev.lakeops.commit;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.TableCompactor;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;

/**
 * Compacts {@code db.t} of a Hadoop warehouse with partial progress (so that commits happen at many
 * moments); run in a separate JVM by {@link KilledCompactionTest}, which kills it.
 */
public final class CompactionMain {
  private CompactionMain() {}

  public static void main(String[] args) {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), args[0]);
    Table table = catalog.loadTable(TableIdentifier.of("db", "t"));
    System.out.println("started");
    new TableCompactor()
        .compact(
            table,
            CompactionRequest.builder()
                .options(
                    Map.of(
                        "min-input-files", "2",
                        "max-concurrent-file-group-rewrites", "2",
                        "partial-progress.enabled", "true",
                        "partial-progress.max-commits", "4"))
                .build());
    System.out.println("finished");
  }
}
