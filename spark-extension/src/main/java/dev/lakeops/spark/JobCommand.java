package dev.lakeops.spark;

import static java.util.Objects.requireNonNull;

import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructField;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * One {@link LakeOpsJob} command, built from an operation of the procedure contract: it takes the
 * CLI's flags for the operation's Spark arguments ({@code --memory-budget 512MB}, with the CLI's
 * deprecated aliases), runs {@code CALL lakeops.<operation>(...)} in the application's session (so
 * the table is found through its {@code spark.sql.catalog.<name>.*} settings) and prints every
 * result row, one {@code column: value} per line, rows separated by a blank line.
 */
final class JobCommand implements Callable<Integer> {
  private final LakeOpsJob job;
  private final Operation operation;
  private final JobShortcuts shortcuts;
  private final CommandSpec spec;

  private JobCommand(LakeOpsJob job, Operation operation) {
    this.job = requireNonNull(job, "job is null");
    this.operation = requireNonNull(operation, "operation is null");
    this.shortcuts = JobShortcuts.of(operation);
    this.spec = CommandSpec.wrapWithoutInspection(this);
    spec.name(operation.name());
    if (!operation.commandName().equals(operation.name())) {
      spec.aliases(operation.commandName());
    }
    spec.mixinStandardHelpOptions(true);
    spec.usageMessage().description(operation.description());
    spec.addPositional(
        PositionalParamSpec.builder()
            .index("0")
            .paramLabel("<catalog.namespace.table>")
            .type(String.class)
            .required(true)
            .description("The table.")
            .build());
    for (OperationArgument argument : operation.arguments(Host.SPARK)) {
      spec.addOption(option(argument));
    }
    shortcuts.options().forEach(spec::addOption);
  }

  /** The command spec of {@code operation} for {@code job}. */
  static CommandSpec spec(LakeOpsJob job, Operation operation) {
    return new JobCommand(job, operation).spec;
  }

  @Override
  public Integer call() {
    String table = spec.positionalParameters().get(0).getValue();
    Map<String, Object> values = new LinkedHashMap<>();
    for (OperationArgument argument : operation.arguments(Host.SPARK)) {
      Object value = spec.findOption(argument.cliFlag()).getValue();
      if (value != null) {
        values.put(argument.name(), value);
      }
    }
    shortcuts.apply(spec, values);
    List<String> arguments = new ArrayList<>();
    arguments.add("table => " + SparkSqlLiterals.string(table));
    values.forEach(
        (name, value) ->
            arguments.add(
                name + " => " + SparkSqlLiterals.of(operation.argument(name).type(), value)));
    return printRows(
        job.spark()
            .sql("CALL lakeops." + operation.name() + "(" + String.join(", ", arguments) + ")")
            .collectAsList());
  }

  private int printRows(List<Row> rows) {
    for (int index = 0; index < rows.size(); index++) {
      if (index > 0) {
        job.out().println();
      }
      Row row = rows.get(index);
      StructField[] fields = row.schema().fields();
      for (int field = 0; field < fields.length; field++) {
        job.out()
            .println(fields[field].name() + ": " + (row.isNullAt(field) ? "" : row.get(field)));
      }
    }
    return 0;
  }

  /** The flag of {@code argument}, under its CLI spelling and the CLI's deprecated aliases. */
  private OptionSpec option(OperationArgument argument) {
    List<String> names = new ArrayList<>();
    names.add(argument.cliFlag());
    argument.aliasesOn(Host.CLI).forEach(alias -> names.add(alias.name()));
    OptionSpec.Builder option =
        OptionSpec.builder(names.toArray(String[]::new))
            .description(
                argument.description()
                    + argument
                        .defaultValue()
                        .map(text -> " (default: " + shortcuts.defaultOf(argument, text) + ")")
                        .orElse(""));
    ArgumentType type = argument.type();
    return switch (type) {
      case BOOLEAN -> option.type(boolean.class).arity("0").build();
      case INTEGER -> option.type(Integer.class).paramLabel("N").build();
      case TEXT_LIST ->
          option.type(List.class).auxiliaryTypes(String.class).splitRegex(",").build();
      case LONG_LIST -> option.type(List.class).auxiliaryTypes(Long.class).splitRegex(",").build();
      case TEXT_MAP ->
          option
              .type(Map.class)
              .auxiliaryTypes(String.class, String.class)
              .paramLabel("KEY=VALUE")
              .build();
      case TEXT, SIZE, CUTOFF -> option.type(String.class).paramLabel(type.name()).build();
    };
  }
}
