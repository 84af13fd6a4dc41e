package dev.lakeops.flink;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.RunLedger;
import dev.lakeops.runs.HostRunLedger;
import dev.lakeops.telemetry.recorder.TelemetryRecorder;
import java.time.Clock;
import java.util.Optional;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.iceberg.Table;
import org.apache.iceberg.flink.TableLoader;

/**
 * The hook's one operator (parallelism 1). It receives no records; Flink tells it when a checkpoint
 * completes, which is when Iceberg's committer commits the checkpoint's files, and it hands the
 * check to its {@link CompactionService}, whose own thread does the work.
 */
final class CompactionTriggerOperator<T> extends AbstractStreamOperator<Void>
    implements OneInputStreamOperator<T, Void> {
  private static final long serialVersionUID = 1L;

  private final TableLoader tableLoader;
  private final CompactionHookOptions options;
  private transient CompactionService service;
  private transient TelemetryRecorder recorder;
  private transient RunLedger ledger;

  CompactionTriggerOperator(TableLoader tableLoader, CompactionHookOptions options) {
    this.tableLoader = requireNonNull(tableLoader, "tableLoader is null");
    this.options = requireNonNull(options, "options is null");
  }

  @Override
  public void open() throws Exception {
    super.open();
    tableLoader.open();
    Table table = tableLoader.loadTable();
    recorder = options.telemetryStore().map(TelemetryRecorder::open).orElse(null);
    ledger =
        HostRunLedger.open(options.telemetryStore(), "LakeOpsCompaction.Builder.telemetry(store)");
    String owner = "flink-job-" + getRuntimeContext().getJobInfo().getJobId();
    service =
        new CompactionService(
            table, options, owner, Optional.ofNullable(recorder), ledger, Clock.systemUTC());
    MetricGroup metrics = getMetricGroup().addGroup("lakeops");
    metrics.gauge("commitsPerMinute", service::commitsPerMinute);
    metrics.gauge("filesPerCommit", service::filesPerCommit);
    metrics.gauge("checks", service::checks);
    metrics.gauge("compactions", service::compactions);
    metrics.gauge("lockRefusals", service::lockRefusals);
    metrics.gauge("conflicts", service::conflicts);
    metrics.gauge("failures", service::failures);
    metrics.gauge("finishing", service::finishing);
  }

  @Override
  public void processElement(StreamRecord<T> element) {
    // The hook's input is filtered empty; it only listens for checkpoints.
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    service.checkpointCompleted(checkpointId);
  }

  /**
   * The input ended (a bounded job, or stop with drain): stops checking and lets a running
   * compaction finish, up to the close timeout. Waiting here, not in {@link #close}, keeps the task
   * in the job's checkpoints: a closing task declines every checkpoint the coordinator triggers.
   */
  @Override
  public void finish() throws Exception {
    if (service != null) {
      service.finishRunningCompaction();
    }
    super.finish();
  }

  @Override
  public void close() throws Exception {
    try {
      if (service != null) {
        service.close();
      }
      if (recorder != null) {
        recorder.close();
      }
      if (ledger != null) {
        ledger.close();
      }
      tableLoader.close();
    } finally {
      super.close();
    }
  }
}
