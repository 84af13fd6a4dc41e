package dev.lakeops.spark;

import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.Operations;
import dev.lakeops.plan.RewriteOptions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The CLI's convenience flags that are not procedure arguments, as {@link LakeOpsJob} offers them
 * too: {@code compact --min-age} (an entry of {@code options}) and {@code maintain --skip-expire /
 * --skip-orphans / --skip-compact / --skip-manifests} (entries of {@code skip_steps}). A job
 * compacts on the executors unless told {@code --execution driver}.
 */
final class JobShortcuts {
  private static final String EXECUTION = "execution";
  private static final String EXECUTION_DEFAULT = "executors";
  private static final List<String> STEPS =
      Arrays.stream(MaintenanceStep.values()).map(MaintenanceStep::displayName).toList();

  private final Operation operation;

  private JobShortcuts(Operation operation) {
    this.operation = operation;
  }

  static JobShortcuts of(Operation operation) {
    return new JobShortcuts(operation);
  }

  List<OptionSpec> options() {
    if (operation.equals(Operations.COMPACT)) {
      return List.of(
          text(
              "--min-age",
              "DURATION",
              "Leave data files committed less than this long ago alone (sets --option min-age)."));
    }
    if (operation.equals(Operations.MAINTAIN)) {
      return STEPS.stream()
          .map(
              step ->
                  OptionSpec.builder("--skip-" + step)
                      .type(boolean.class)
                      .arity("0")
                      .description("Skip the " + step + " step.")
                      .build())
          .toList();
    }
    return List.of();
  }

  /** The default shown for {@code argument}: the job's where it differs from the procedure's. */
  String defaultOf(OperationArgument argument, String contractDefault) {
    return argument.name().equals(EXECUTION) ? EXECUTION_DEFAULT : contractDefault;
  }

  /** Folds the shortcut flags {@code spec} parsed into the procedure arguments {@code values}. */
  void apply(CommandSpec spec, Map<String, Object> values) {
    if (operation.equals(Operations.COMPACT)) {
      values.putIfAbsent(EXECUTION, EXECUTION_DEFAULT);
      Map<Object, Object> options = new LinkedHashMap<>();
      if (values.get("options") instanceof Map<?, ?> given) {
        options.putAll(given);
      }
      String minAge = spec.findOption("--min-age").getValue();
      if (minAge != null) {
        options.put(RewriteOptions.MIN_AGE, minAge);
      }
      if (!options.isEmpty()) {
        values.put("options", options);
      }
    }
    if (operation.equals(Operations.MAINTAIN)) {
      List<Object> steps = new ArrayList<>();
      if (values.get("skip_steps") instanceof List<?> given) {
        steps.addAll(given);
      }
      for (String step : STEPS) {
        if (Boolean.TRUE.equals(spec.findOption("--skip-" + step).getValue())) {
          steps.add(step);
        }
      }
      if (!steps.isEmpty()) {
        values.put("skip_steps", steps);
      }
    }
  }

  private static OptionSpec text(String name, String label, String description) {
    return OptionSpec.builder(name)
        .type(String.class)
        .paramLabel(label)
        .description(description)
        .build();
  }
}
