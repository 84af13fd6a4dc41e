package dev.lakeops.observe;

import dev.lakeops.policy.EffectivePolicy;
import dev.lakeops.policy.PolicyKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An effective policy as key, value and source rows for the table page. */
public final class PolicyValues {
  private PolicyValues() {}

  /** Every policy key in declaration order, then the table's {@code compact.options.*}. */
  public static List<PolicyValue> of(EffectivePolicy policy) {
    List<PolicyValue> values = new ArrayList<>();
    for (PolicyKey key : PolicyKey.values()) {
      values.add(new PolicyValue(key.key(), policy.text(key), policy.source(key).toString()));
    }
    for (Map.Entry<String, String> option : policy.compactOptions().entrySet()) {
      values.add(
          new PolicyValue(
              PolicyKey.COMPACT_OPTIONS_PREFIX + option.getKey(),
              option.getValue(),
              String.valueOf(policy.compactOptionSources().get(option.getKey()))));
    }
    return values;
  }
}
