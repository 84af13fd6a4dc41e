package dev.lakeops.cli;

import dev.lakeops.cost.CostFields;
import dev.lakeops.learn.RunPlanStore;
import dev.lakeops.ledger.RunRecord;
import dev.lakeops.unit.ByteSize;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The {@code runs} command's output: a table for people, one JSON object for tools. */
final class RunReports {
  private static final String ROW =
      "%-20s %-24s %-19s %-5s %-9s %8s %8s %7s %7s %10s %10s %10s %10s %9s  %s%n";

  private RunReports() {}

  static String human(List<RunRecord> runs, Map<String, RunPlanStore.Prediction> predictions) {
    if (runs.isEmpty()) {
      return "No runs recorded.";
    }
    StringBuilder text = new StringBuilder();
    text.append(
        String.format(
            ROW,
            "started",
            "table",
            "operation",
            "host",
            "status",
            "seconds",
            "pred s",
            "in",
            "out",
            "in bytes",
            "out bytes",
            "peak mem",
            "pred mem",
            "conflicts",
            "reason / error"));
    for (RunRecord run : runs) {
      RunPlanStore.Prediction prediction = predictions.get(run.runId());
      String seconds =
          run.elapsed()
              .map(elapsed -> String.format("%.1f", elapsed.toMillis() / 1000.0))
              .orElse("-");
      text.append(
          String.format(
              ROW,
              DateTimeFormatter.ISO_INSTANT.format(run.started().truncatedTo(ChronoUnit.SECONDS)),
              run.table(),
              run.operation() + (run.start().dryRun() ? " (dry)" : ""),
              run.start().host().label(),
              run.status().label(),
              seconds,
              prediction == null ? "-" : String.format("%.1f", prediction.seconds()),
              run.figures().inputFiles(),
              run.figures().outputFiles(),
              ByteSize.ofBytes(run.figures().inputBytes()),
              ByteSize.ofBytes(run.figures().outputBytes()),
              ByteSize.ofBytes(run.figures().peakMemoryBytes()),
              prediction == null ? "-" : ByteSize.ofBytes(prediction.peakMemoryBytes()),
              run.figures().commitConflicts(),
              run.error()
                  .map(error -> run.start().reason() + ": " + error)
                  .orElse(run.start().reason())));
    }
    return text.toString().stripTrailing();
  }

  static Map<String, Object> json(
      List<RunRecord> runs, Map<String, RunPlanStore.Prediction> predictions) {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put(
        "runs",
        runs.stream()
            .map(
                run -> {
                  Map<String, Object> row = json(run);
                  RunPlanStore.Prediction prediction = predictions.get(run.runId());
                  row.put("predicted_seconds", prediction == null ? null : prediction.seconds());
                  row.put(
                      "predicted_peak_memory_bytes",
                      prediction == null ? null : prediction.peakMemoryBytes());
                  return row;
                })
            .toList());
    return result;
  }

  /** One run with the ledger's column names. */
  static Map<String, Object> json(RunRecord run) {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("run_id", run.runId());
    row.put("catalog", run.start().catalog());
    row.put("table", run.table());
    row.put("operation", run.operation());
    row.put("trigger_reason", run.start().reason());
    row.put("host", run.start().host().label());
    row.put("process", run.process());
    row.put("dry_run", run.start().dryRun());
    row.put("started", run.started().toString());
    row.put("finished", run.finished().map(Object::toString).orElse(null));
    row.put("status", run.status().label());
    row.put("error", run.error().orElse(null));
    row.put("input_files", run.figures().inputFiles());
    row.put("output_files", run.figures().outputFiles());
    row.put("input_bytes", run.figures().inputBytes());
    row.put("output_bytes", run.figures().outputBytes());
    row.put("removed_delete_files", run.figures().removedDeleteFiles());
    row.put("recompacted_bytes", run.figures().recompactedBytes());
    row.put("peak_memory_bytes", run.figures().peakMemoryBytes());
    row.put(
        "snapshot_id",
        run.figures().snapshotId().isPresent() ? run.figures().snapshotId().getAsLong() : null);
    row.put("commit_conflicts", run.figures().commitConflicts());
    row.put("commit_retries", run.figures().commitRetries());
    row.putAll(CostFields.of(run.figures().cost()));
    return row;
  }
}
