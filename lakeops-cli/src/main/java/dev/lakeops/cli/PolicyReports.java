package dev.lakeops.cli;

import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyFile;
import dev.lakeops.policy.PolicyKey;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Renders an effective policy, value and source per key, as JSON or as a table. */
final class PolicyReports {
  private PolicyReports() {}

  static Map<String, Object> json(EffectivePolicy policy, PolicyFile file) {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("table", policy.table().toString());
    json.put("policy_file", file.fileName());
    Map<String, Object> keys = new LinkedHashMap<>();
    for (PolicyKey key : PolicyKey.values()) {
      keys.put(key.key(), entry(policy.text(key), policy.source(key).toString()));
    }
    policy
        .compactOptions()
        .forEach(
            (option, value) ->
                keys.put(
                    PolicyKey.COMPACT_OPTIONS_PREFIX + option,
                    entry(value, policy.compactOptionSources().get(option).toString())));
    json.put("policy", keys);
    return json;
  }

  static String human(EffectivePolicy policy, PolicyFile file) {
    StringBuilder text = new StringBuilder();
    text.append(policy.table()).append(" (policy file: ").append(file.fileName()).append(')');
    for (PolicyKey key : PolicyKey.values()) {
      text.append(line(key.key(), policy.text(key), policy.source(key).toString()));
    }
    policy
        .compactOptions()
        .forEach(
            (option, value) ->
                text.append(
                    line(
                        PolicyKey.COMPACT_OPTIONS_PREFIX + option,
                        value,
                        policy.compactOptionSources().get(option).toString())));
    return text.toString();
  }

  private static Map<String, String> entry(String value, String source) {
    Map<String, String> entry = new LinkedHashMap<>();
    entry.put("value", value);
    entry.put("source", source);
    return entry;
  }

  private static String line(String key, String value, String source) {
    return String.format(Locale.ROOT, "%n  %-30s %-10s %s", key, value, source);
  }
}
