package dev.lakeops.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.CloseableIterable;

/** What the trigger tests share: a table's policy, its live files and a quiet history. */
final class TriggerTestSupport {
  private TriggerTestSupport() {}

  /** The policy of {@code table} (as db.name), its properties overridden by {@code extra}. */
  static EffectivePolicy policy(Table table, Map<String, String> extra) {
    Map<String, String> properties = new HashMap<>(table.properties());
    properties.putAll(extra);
    return new PolicyResolver(PolicyFile.empty())
        .resolve(
            TableIdentifier.of("db", table.name().substring(table.name().lastIndexOf('.') + 1)),
            properties);
  }

  /** The one due operation of {@code decision}, asserting it is {@code operation}. */
  static DueOperation only(MaintenanceOperation operation, TriggerDecision decision) {
    assertThat(decision.due()).extracting(DueOperation::operation).containsExactly(operation);
    return decision.due().get(0);
  }

  /** An orphan cleanup {@code ago} before {@code now}. */
  static MaintenanceHistory orphanRunAgo(Instant now, Duration ago) {
    return MaintenanceHistory.none()
        .withFinished(MaintenanceOperation.REMOVE_ORPHAN_FILES, now.minus(ago), false);
  }

  /** An orphan cleanup an hour ago, so that it is not due. */
  static MaintenanceHistory recentOrphanRun(Instant now) {
    return orphanRunAgo(now, Duration.ofHours(1));
  }

  /** The locations of the table's live data files, sorted. */
  static List<String> liveDataFiles(Table table) {
    List<String> files = new ArrayList<>();
    table.refresh();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      tasks.forEach(task -> files.add(task.file().location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    files.sort(String::compareTo);
    return files;
  }
}
