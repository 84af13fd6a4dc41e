package dev.lakeops.policy;

/** The policy reference in {@code docs/serve.md}, rendered from {@link PolicyKey}. */
public final class PolicyReference {
  private PolicyReference() {}

  /** One Markdown table row per key, then the {@code compact.options.*} row. */
  public static String markdownTable() {
    StringBuilder table =
        new StringBuilder("| key | default | values | meaning |\n|---|---|---|---|\n");
    for (PolicyKey key : PolicyKey.values()) {
      table
          .append("| `")
          .append(key.key())
          .append("` | `")
          .append(key.defaultText())
          .append("` | ")
          .append(key.type().choices().replace("|", "\\|"))
          .append(" | ")
          .append(key.description())
          .append(" |\n");
    }
    table
        .append("| `")
        .append(PolicyKey.COMPACT_OPTIONS_PREFIX)
        .append(
            "<option>` | | any Iceberg `rewrite_data_files` option LakeOps accepts | Passed to compaction as is,"
                + " e.g. `compact.options.partial-progress.enabled: true`. |\n");
    return table.toString();
  }
}
