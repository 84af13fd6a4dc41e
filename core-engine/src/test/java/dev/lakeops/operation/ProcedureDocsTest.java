package dev.lakeops.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/procedures.md} holds one table per operation, rendered from {@link Operations}: the
 * docs cannot drift from what the engines declare. Run with {@code -Dlakeops.writeDocs=true} to
 * rewrite the tables after changing the contract.
 */
class ProcedureDocsTest {
  private static final Path DOCS = Path.of("..", "docs", "procedures.md");
  private static final String BEGIN = "<!-- operations: generated from Operations.java -->";
  private static final String END = "<!-- end of generated operations -->";

  @Test
  void docsListEveryOperationAsTheContractDeclaresIt() throws IOException {
    String docs = Files.readString(DOCS);
    int begin = docs.indexOf(BEGIN);
    int end = docs.indexOf(END);
    assertThat(begin).as("marker in " + DOCS).isNotNegative();
    assertThat(end).as("marker in " + DOCS).isGreaterThan(begin);
    String generated = BEGIN + "\n" + tables() + END;
    if (Boolean.getBoolean("lakeops.writeDocs")) {
      Files.writeString(
          DOCS, docs.substring(0, begin) + generated + docs.substring(end + END.length()));
      return;
    }
    assertThat(docs.substring(begin, end + END.length()))
        .as("docs/procedures.md is out of date: run this test with -Dlakeops.writeDocs=true")
        .isEqualTo(generated);
  }

  static String tables() {
    StringBuilder out = new StringBuilder();
    for (Operation operation : Operations.ALL) {
      out.append("\n### ").append(operation.name()).append("\n\n");
      out.append(operation.description())
          .append(" Offered on: ")
          .append(hosts(operation))
          .append(".\n\n");
      if (operation.arguments().isEmpty()) {
        out.append("No arguments besides the table.\n");
        continue;
      }
      out.append("| argument | kind | default | meaning | Spark | Trino | CLI | Flink |\n");
      out.append("|---|---|---|---|---|---|---|---|\n");
      for (OperationArgument argument : operation.arguments()) {
        out.append("| `")
            .append(argument.name())
            .append("` | ")
            .append(argument.type().name().toLowerCase(Locale.ROOT).replace('_', ' '))
            .append(" | ")
            .append(argument.defaultValue().orElse("—"))
            .append(" | ")
            .append(argument.description().replace("|", "\\|"))
            .append(" |");
        for (Host host : Host.values()) {
          out.append(' ').append(spelling(operation, argument, host)).append(" |");
        }
        out.append('\n');
      }
    }
    return out.toString();
  }

  private static String hosts(Operation operation) {
    return List.of(Host.values()).stream()
        .filter(operation::offeredOn)
        .map(host -> host.name().charAt(0) + host.name().substring(1).toLowerCase(Locale.ROOT))
        .map(name -> name.equals("Cli") ? "CLI" : name)
        .collect(Collectors.joining(", "));
  }

  private static String spelling(Operation operation, OperationArgument argument, Host host) {
    if (!operation.offeredOn(host) || !argument.offeredOn(host)) {
      return "—";
    }
    String spelling = "`" + argument.spelling(host) + "`";
    List<String> aliases =
        argument.aliasesOn(host).stream().map(alias -> "`" + alias.name() + "`").toList();
    return aliases.isEmpty()
        ? spelling
        : spelling + " (deprecated: " + String.join(", ", aliases) + ")";
  }
}
