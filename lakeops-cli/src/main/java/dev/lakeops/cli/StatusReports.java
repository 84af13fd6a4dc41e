package dev.lakeops.cli;

import dev.lakeops.control.TableStatus;
import dev.lakeops.health.HealthPart;
import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.ledger.SuspensionRow;
import dev.lakeops.trigger.DueOperation;
import dev.lakeops.trigger.HeldOperation;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code status} command's output. */
final class StatusReports {
  private StatusReports() {}

  static String human(List<TableStatus> statuses) {
    return human(statuses, List.of(), Instant.now());
  }

  /** The tables, after the serve members sharing the store when there are any. */
  static String human(List<TableStatus> statuses, List<MemberRow> members, Instant now) {
    StringBuilder text = new StringBuilder();
    if (!members.isEmpty()) {
      text.append(MemberReports.human(statuses, members, now));
    }
    if (statuses.isEmpty()) {
      return text.append("No tables.").toString();
    }
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
      status.owner().ifPresent(owner -> text.append("  owner: ").append(owner).append('\n'));
      for (SuspensionRow failing : status.failing()) {
        text.append("  ").append(MemberReports.failing(failing, status.table())).append('\n');
      }
      for (String line : next(status)) {
        text.append("  ").append(line).append('\n');
      }
    }
    return text.toString().stripTrailing();
  }

  private static List<String> next(TableStatus status) {
    List<String> lines = new ArrayList<>();
    for (DueOperation due : status.due()) {
      lines.add("due: " + due.operation().commandName() + ": " + due.reason());
    }
    for (HeldOperation held : status.held()) {
      lines.add(
          "held: "
              + held.operation().commandName()
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
    return json(statuses, List.of(), Instant.now());
  }

  static Map<String, Object> json(
      List<TableStatus> statuses, List<MemberRow> members, Instant now) {
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
              .map(
                  due -> Map.of("operation", due.operation().commandName(), "reason", due.reason()))
              .toList());
      table.put(
          "held",
          status.held().stream()
              .map(
                  held ->
                      Map.of("operation", held.operation().commandName(), "reason", held.reason()))
              .toList());
      table.put("error", status.error().orElse(null));
      table.put("owner", status.owner().orElse(null));
      table.put("failing", status.failing().stream().map(MemberReports::json).toList());
      tables.add(table);
    }
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("members", MemberReports.json(statuses, members, now));
    document.put("tables", tables);
    return document;
  }
}
