package dev.lakeops.maintain.manifest;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.InvalidArgumentException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.TreeSet;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/** Picks the data manifests of the current snapshot that a rewrite packs. */
final class ManifestRewritePlanner {
  private final Table table;
  private final ManifestRewriteOptions options;

  ManifestRewritePlanner(Table table, ManifestRewriteOptions options) {
    this.table = requireNonNull(table, "table is null");
    this.options = requireNonNull(options, "options is null");
  }

  ManifestRewritePlan plan() {
    table.refresh();
    options.specId().ifPresent(this::requireSpec);
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return new ManifestRewritePlan(OptionalLong.empty(), 0, List.of());
    }
    List<ManifestFile> all = current.allManifests(table.io());
    List<ManifestFile> eligible = new ArrayList<>();
    for (ManifestFile manifest : all) {
      if (eligible(manifest)) {
        eligible.add(manifest);
      }
    }
    return new ManifestRewritePlan(OptionalLong.of(current.snapshotId()), all.size(), eligible);
  }

  boolean eligible(ManifestFile manifest) {
    return manifest.content() == ManifestContent.DATA
        && (options.specId().isEmpty()
            || manifest.partitionSpecId() == options.specId().getAsInt());
  }

  private void requireSpec(int specId) {
    if (!table.specs().containsKey(specId)) {
      throw new InvalidArgumentException(
          "Partition spec "
              + specId
              + " does not exist in table "
              + table.name()
              + ": use one of "
              + new TreeSet<>(table.specs().keySet())
              + " in {spec_id}");
    }
  }
}
