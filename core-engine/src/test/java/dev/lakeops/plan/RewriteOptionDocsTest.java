package dev.lakeops.plan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.io.ObjectReadOptions;
import dev.lakeops.option.RewriteOption;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/compaction.md} lists every rewrite option as its {@link RewriteOption} declares it:
 * the docs cannot drift from the code. Run with {@code -Dlakeops.writeDocs=true} to rewrite the
 * table after changing an option.
 */
class RewriteOptionDocsTest {
  private static final Path DOCS = Path.of("..", "docs", "compaction.md");
  private static final String BEGIN =
      "<!-- rewrite options: generated from RewriteOptions.java -->";
  private static final String END = "<!-- end of generated rewrite options -->";

  @Test
  void docsListEveryOptionAsItIsDeclared() throws IOException {
    String docs = Files.readString(DOCS);
    int begin = docs.indexOf(BEGIN);
    int end = docs.indexOf(END);
    assertThat(begin).as("marker in " + DOCS).isNotNegative();
    assertThat(end).as("marker in " + DOCS).isGreaterThan(begin);
    String generated = BEGIN + "\n" + table() + END;
    if (Boolean.getBoolean("lakeops.writeDocs")) {
      Files.writeString(
          DOCS, docs.substring(0, begin) + generated + docs.substring(end + END.length()));
      return;
    }
    assertThat(docs.substring(begin, end + END.length()))
        .as("docs/compaction.md is out of date: run this test with -Dlakeops.writeDocs=true")
        .isEqualTo(generated);
  }

  @Test
  void theGroupsHoldEveryOptionOnce() {
    assertThat(groups().values().stream().flatMap(List::stream).toList())
        .containsExactlyElementsOf(RewriteOptions.OPTIONS);
  }

  private static String table() {
    StringBuilder out = new StringBuilder();
    out.append("| Group | Option | Type | Default | What it does |\n");
    out.append("|---|---|---|---|---|\n");
    for (Map.Entry<String, List<RewriteOption<?>>> group : groups().entrySet()) {
      for (RewriteOption<?> option : group.getValue()) {
        out.append("| ")
            .append(group.getKey())
            .append(" | `")
            .append(option.key())
            .append("` | ")
            .append(option.type())
            .append(" | ")
            .append(option.defaultDescription())
            .append(" | ")
            .append(option.description())
            .append(" |\n");
      }
    }
    return out.toString();
  }

  private static Map<String, List<RewriteOption<?>>> groups() {
    Map<String, List<RewriteOption<?>>> groups = new LinkedHashMap<>();
    groups.put("planner", PlannerOptions.OPTIONS);
    groups.put("commit", CommitOptions.OPTIONS);
    groups.put("execution", ExecutionOptions.OPTIONS);
    groups.put("writer", WriterOptions.OPTIONS);
    groups.put("io", ObjectReadOptions.OPTIONS);
    return groups;
  }
}
