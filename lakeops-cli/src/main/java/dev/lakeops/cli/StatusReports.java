package dev.lakeops.cli;

import dev.lakeops.control.TableStatus;
import dev.lakeops.health.HealthPart;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.trigger.DueOperation;
import dev.lakeops.trigger.HeldOperation;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The {@code status} command's output. */
final class StatusReports {
  private StatusReports() {}

  static String human(List<TableStatus> statuses) {
    if (statuses.isEmpty()) {
      return "No tables.";
    }
    StringBuilder text = new StringBuilder();
    for (TableStatus status : statuses) {
      text.append(status.table()).append(": ");
      if (status.error().isPresent()) {
        text.append("skipped, ").append(status.error().get()).append('\n');
        continue;
      }
      HealthPart worst = status.score().orElseThrow().worst();
      text.append("health ")
          .append(status.score().get().score())
          .append(" (worst: ")
          .append(worst.name())
          .append(' ')
          .append(worst.score())
          .append(", ")
          .append(worst.detail())
          .append(")\n");
      text.append("  last run: ")
          .append(status.lastRun().map(StatusReports::describe).orElse("none"))
          .append('\n');
      for (String line : next(status)) {
        text.append("  ").append(line).append('\n');
      }
    }
    return text.toString().stripTrailing();
  }

  private static List<String> next(TableStatus status) {
    List<String> lines = new ArrayList<>();
    for (DueOperation due : status.due()) {
      lines.add("due: " + name(due.operation().name()) + ": " + due.reason());
    }
    for (HeldOperation held : status.held()) {
      lines.add(
          "held: "
              + name(held.operation().name())
              + ": "
              + held.reason()
              + held.notBefore()
                  .map(when -> " (not before " + when.truncatedTo(ChronoUnit.SECONDS) + ")")
                  .orElse(""));
    }
    if (lines.isEmpty()) {
      lines.add("nothing due: no trigger fires");
    }
    return lines;
  }

  private static String name(String operation) {
    return operation.toLowerCase(Locale.ROOT).replace('_', '-');
  }

  private static String describe(RunRecord run) {
    return run.operation()
        + " "
        + run.status().label()
        + " at "
        + run.started().truncatedTo(ChronoUnit.SECONDS)
        + " ("
        + run.start().host().label()
        + (run.error().map(error -> ": " + error).orElse(""))
        + ")";
  }

  static Map<String, Object> json(List<TableStatus> statuses) {
    List<Map<String, Object>> tables = new ArrayList<>();
    for (TableStatus status : statuses) {
      Map<String, Object> table = new LinkedHashMap<>();
      table.put("table", status.table());
      table.put("health_score", status.score().map(score -> (Object) score.score()).orElse(null));
      table.put(
          "worst_part", status.score().map(score -> (Object) score.worst().name()).orElse(null));
      table.put(
          "worst_part_detail",
          status.score().map(score -> (Object) score.worst().detail()).orElse(null));
      Map<String, Object> parts = new LinkedHashMap<>();
      status
          .score()
          .ifPresent(score -> score.parts().forEach(part -> parts.put(part.name(), part.score())));
      table.put("parts", parts);
      table.put("last_run", status.lastRun().map(RunReports::json).orElse(null));
      table.put(
          "due",
          status.due().stream()
              .map(due -> Map.of("operation", name(due.operation().name()), "reason", due.reason()))
              .toList());
      table.put(
          "held",
          status.held().stream()
              .map(
                  held ->
                      Map.of("operation", name(held.operation().name()), "reason", held.reason()))
              .toList());
      table.put("error", status.error().orElse(null));
      tables.add(table);
    }
    return Map.of("tables", tables);
  }
}
