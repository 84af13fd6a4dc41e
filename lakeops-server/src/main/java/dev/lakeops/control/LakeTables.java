package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Lists every table of every namespace of a catalog, nested namespaces included. Namespaces whose
 * name starts with a dot (the warehouse's own {@code .lakeops} directory) are not LakeOps' to
 * maintain; a namespace that cannot be listed is logged and skipped.
 */
final class LakeTables {
  private final Catalog catalog;
  private final DaemonLog log;

  LakeTables(Catalog catalog, DaemonLog log) {
    this.catalog = requireNonNull(catalog, "catalog is null");
    this.log = requireNonNull(log, "log is null");
  }

  List<TableIdentifier> list() {
    List<TableIdentifier> tables = new ArrayList<>();
    if (!(catalog instanceof SupportsNamespaces namespaces)) {
      tables.addAll(catalog.listTables(Namespace.empty()));
      return tables;
    }
    Deque<Namespace> pending = new ArrayDeque<>();
    pending.add(Namespace.empty());
    while (!pending.isEmpty()) {
      Namespace namespace = pending.poll();
      try {
        if (!namespace.isEmpty()) {
          tables.addAll(catalog.listTables(namespace));
        }
        for (Namespace child : namespaces.listNamespaces(namespace)) {
          if (!child.level(child.length() - 1).startsWith(".")) {
            pending.add(child);
          }
        }
      } catch (RuntimeException e) {
        log.note(
            "namespace "
                + (namespace.isEmpty() ? "<root>" : namespace)
                + " skipped: "
                + DaemonLog.oneLine(e));
      }
    }
    return tables;
  }
}
