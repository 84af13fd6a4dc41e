package dev.lakeops.policy;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * Resolves a table's effective policy, most specific level winning: built-in defaults, the policy
 * file's {@code catalog:}, its {@code namespaces:} (a parent namespace before a nested one), its
 * {@code tables:}, then the table's own Iceberg properties {@code lakeops.<key>}.
 */
public final class PolicyResolver {
  /** Table properties under this prefix override the policy file. */
  public static final String TABLE_PROPERTY_PREFIX = "lakeops.";

  /** First key segments that make a {@code lakeops.*} table property a policy key. */
  private static final Set<String> POLICY_SEGMENTS = policySegments();

  private final PolicyFile file;

  public PolicyResolver(PolicyFile file) {
    this.file = requireNonNull(file, "file is null");
  }

  public PolicyFile file() {
    return file;
  }

  /**
   * The policy of {@code table}.
   *
   * @throws PolicyException when a {@code lakeops.<key>} property is unknown or malformed
   */
  public EffectivePolicy resolve(TableIdentifier table, Map<String, String> tableProperties) {
    requireNonNull(table, "table is null");
    requireNonNull(tableProperties, "tableProperties is null");
    Map<PolicyKey, Object> values = new EnumMap<>(PolicyKey.class);
    Map<PolicyKey, PolicySource> sources = new EnumMap<>(PolicyKey.class);
    for (PolicyKey key : PolicyKey.values()) {
      values.put(key, key.defaultValue());
      sources.put(key, PolicySource.DEFAULT);
    }
    Map<String, String> options = new LinkedHashMap<>();
    Map<String, PolicySource> optionSources = new LinkedHashMap<>();
    apply(file.catalog(), PolicySource.CATALOG, values, sources, options, optionSources);
    for (String namespace : namespaceChain(table.namespace())) {
      PolicySection section = file.namespaces().get(namespace);
      if (section != null) {
        apply(section, PolicySource.namespace(namespace), values, sources, options, optionSources);
      }
    }
    PolicySection tableSection = file.tables().get(table.toString());
    if (tableSection != null) {
      apply(
          tableSection,
          PolicySource.table(table.toString()),
          values,
          sources,
          options,
          optionSources);
    }
    Map<String, String> flat = new LinkedHashMap<>();
    tableProperties.forEach(
        (property, value) -> {
          if (property.startsWith(TABLE_PROPERTY_PREFIX)) {
            String key = property.substring(TABLE_PROPERTY_PREFIX.length());
            int dot = key.indexOf('.');
            if (POLICY_SEGMENTS.contains(dot < 0 ? key : key.substring(0, dot))) {
              flat.put(key, value);
            }
          }
        });
    PolicySection properties =
        SectionParser.parse(
            flat,
            new SectionParser.Origin("table " + table + ": ", "", TABLE_PROPERTY_PREFIX, false));
    for (Map.Entry<PolicyKey, Object> entry : properties.values().entrySet()) {
      values.put(entry.getKey(), entry.getValue());
      sources.put(
          entry.getKey(), PolicySource.tableProperty(TABLE_PROPERTY_PREFIX + entry.getKey().key()));
    }
    properties
        .compactOptions()
        .forEach(
            (option, value) -> {
              options.put(option, value);
              optionSources.put(
                  option,
                  PolicySource.tableProperty(
                      TABLE_PROPERTY_PREFIX + PolicyKey.COMPACT_OPTIONS_PREFIX + option));
            });
    EffectivePolicy policy = new EffectivePolicy(table, values, sources, options, optionSources);
    policy.checkConsistent();
    return policy;
  }

  /**
   * The policy of the catalog level alone (defaults and {@code catalog:}), e.g. for lake settings.
   */
  public EffectivePolicy catalogLevel() {
    return resolve(TableIdentifier.of(Namespace.empty(), "*"), Map.of());
  }

  private static void apply(
      PolicySection section,
      PolicySource source,
      Map<PolicyKey, Object> values,
      Map<PolicyKey, PolicySource> sources,
      Map<String, String> options,
      Map<String, PolicySource> optionSources) {
    section
        .values()
        .forEach(
            (key, value) -> {
              values.put(key, value);
              sources.put(key, source);
            });
    section
        .compactOptions()
        .forEach(
            (option, value) -> {
              options.put(option, value);
              optionSources.put(option, source);
            });
  }

  /** {@code a}, {@code a.b}, {@code a.b.c} for namespace {@code a.b.c}. */
  private static List<String> namespaceChain(Namespace namespace) {
    List<String> chain = new ArrayList<>();
    StringBuilder name = new StringBuilder();
    for (String level : namespace.levels()) {
      if (name.length() > 0) {
        name.append('.');
      }
      name.append(level);
      chain.add(name.toString());
    }
    return chain;
  }

  private static Set<String> policySegments() {
    Set<String> segments = new HashSet<>();
    for (PolicyKey key : PolicyKey.values()) {
      int dot = key.key().indexOf('.');
      segments.add(dot < 0 ? key.key() : key.key().substring(0, dot));
    }
    return Set.copyOf(segments);
  }
}
