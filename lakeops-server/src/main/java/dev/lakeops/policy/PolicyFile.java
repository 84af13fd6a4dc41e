package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lakeops.unit.ByteSize;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A parsed and validated policy file:
 *
 * <pre>
 * catalog:                      # every table; lake-wide keys only here
 *   max-concurrent-tables: 2
 *   compact.min-small-files: 12
 * namespaces:
 *   db:
 *     compact: {strategy: sort} # nested maps and dotted keys mean the same
 * tables:
 *   db.events:
 *     expire.older-than: 2d
 * </pre>
 *
 * Every key and value is checked when the file is loaded; the first problem is a {@link
 * PolicyException} of one line naming the file, the key and the valid choices.
 *
 * @param fileName the name errors and sources use ({@code <none>} for the empty policy)
 * @param catalog the {@code catalog:} section
 * @param namespaces the {@code namespaces:} sections by namespace ({@code a.b} for nested ones)
 * @param tables the {@code tables:} sections by {@code namespace.table}
 */
public record PolicyFile(
    String fileName,
    PolicySection catalog,
    Map<String, PolicySection> namespaces,
    Map<String, PolicySection> tables) {
  private static final Set<String> SECTIONS = Set.of("catalog", "namespaces", "tables");

  public PolicyFile {
    requireNonNull(fileName, "fileName is null");
    requireNonNull(catalog, "catalog is null");
    namespaces =
        Collections.unmodifiableMap(
            new LinkedHashMap<>(requireNonNull(namespaces, "namespaces is null")));
    tables =
        Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(tables, "tables is null")));
  }

  /** No policy file: every table gets the built-in defaults. */
  public static PolicyFile empty() {
    return new PolicyFile("<none>", PolicySection.EMPTY, Map.of(), Map.of());
  }

  /** Reads and validates {@code file}; errors name it as given. */
  public static PolicyFile load(Path file) {
    requireNonNull(file, "file is null");
    String text;
    try {
      text = Files.readString(file);
    } catch (NoSuchFileException e) {
      throw new PolicyException(file + ": no such policy file");
    } catch (IOException e) {
      throw new PolicyException(file + ": cannot read the policy file: " + e.getMessage());
    }
    return parse(text, file.toString());
  }

  /** Parses and validates policy YAML; {@code fileName} names it in errors. */
  public static PolicyFile parse(String yaml, String fileName) {
    requireNonNull(yaml, "yaml is null");
    requireNonNull(fileName, "fileName is null");
    JsonNode root = PolicyDocumentReader.read(yaml, fileName);
    Map<String, JsonNode> sections =
        PolicyDocumentReader.children(root, fileName, "the policy file");
    for (String section : sections.keySet()) {
      if (!SECTIONS.contains(section)) {
        throw new PolicyException(
            fileName
                + ": unknown section '"
                + section
                + "'; valid sections: catalog, namespaces, tables");
      }
    }
    PolicySection catalog = section(sections.get("catalog"), fileName, "catalog", true);
    Map<String, PolicySection> namespaces = new LinkedHashMap<>();
    PolicyDocumentReader.children(sections.get("namespaces"), fileName, "namespaces")
        .forEach(
            (name, node) ->
                namespaces.put(name, section(node, fileName, "namespaces." + name, false)));
    Map<String, PolicySection> tables = new LinkedHashMap<>();
    PolicyDocumentReader.children(sections.get("tables"), fileName, "tables")
        .forEach(
            (name, node) -> {
              if (!name.contains(".")) {
                throw new PolicyException(
                    fileName
                        + ": table '"
                        + name
                        + "' in tables must be written namespace.table, e.g. db."
                        + name);
              }
              tables.put(name, section(node, fileName, "tables." + name, false));
            });
    return new PolicyFile(fileName, catalog, namespaces, tables);
  }

  /** The lake-wide settings: the {@code catalog:} section's or the defaults. */
  public LakeSettings lakeSettings() {
    return new LakeSettings(
        (Integer) lakeValue(PolicyKey.MAX_CONCURRENT_TABLES),
        (ByteSize) lakeValue(PolicyKey.MEMORY),
        castOptionalSize(lakeValue(PolicyKey.MAX_BYTES_PER_HOUR)));
  }

  /** {@code evaluation-threads}: tables evaluated at the same time. */
  public int evaluationThreads() {
    return (Integer) lakeValue(PolicyKey.EVALUATION_THREADS);
  }

  /** {@code metrics.table-series}: the most tables with per-table metric series. */
  public int metricsTableSeries() {
    return (Integer) lakeValue(PolicyKey.METRICS_TABLE_SERIES);
  }

  private Object lakeValue(PolicyKey key) {
    return catalog.values().getOrDefault(key, key.defaultValue());
  }

  @SuppressWarnings("unchecked")
  private static Optional<ByteSize> castOptionalSize(Object value) {
    return (Optional<ByteSize>) value;
  }

  private static PolicySection section(
      JsonNode node, String fileName, String path, boolean lakeAllowed) {
    if (node == null || node.isNull()) {
      return PolicySection.EMPTY;
    }
    Map<String, String> flat = PolicyDocumentReader.flatten(node, fileName, path);
    return SectionParser.parse(
        flat, new SectionParser.Origin(fileName + ": ", " in " + path, "", lakeAllowed));
  }
}
