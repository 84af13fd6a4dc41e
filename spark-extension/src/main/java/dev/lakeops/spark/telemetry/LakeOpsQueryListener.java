package dev.lakeops.spark.telemetry;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.telemetry.recorder.TelemetryRecorder;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.util.QueryExecutionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Tuple2;

/**
 * Records, for each successful query, which columns of which Iceberg tables it filtered, joined,
 * grouped and sorted on, into the LakeOps telemetry store. Register it with {@code
 * spark.sql.queryExecutionListeners=dev.lakeops.spark.telemetry.LakeOpsQueryListener}; configure it
 * with {@code spark.lakeops.telemetry.*} (see {@link TelemetrySettings}).
 *
 * <p>Spark calls query execution listeners on its listener bus thread, after the query has
 * returned; the listener walks the optimized plan there and hands the events to the bounded,
 * non-blocking {@link TelemetryRecorder}, which writes them in batches on its own thread. Telemetry
 * never fails or slows a query: a store that cannot be opened, or a plan that cannot be read, is
 * logged and skipped.
 */
public final class LakeOpsQueryListener implements QueryExecutionListener {
  private static final Logger LOG = LoggerFactory.getLogger(LakeOpsQueryListener.class);

  private final TelemetrySettings settings;
  private volatile boolean storeFailed;

  /** Spark's constructor: reads {@code spark.lakeops.telemetry.*} from the application's conf. */
  public LakeOpsQueryListener(SparkConf conf) {
    this(TelemetrySettings.parse(entries(conf)));
  }

  public LakeOpsQueryListener(TelemetrySettings settings) {
    this.settings = requireNonNull(settings, "settings is null");
  }

  @Override
  public void onSuccess(String functionName, QueryExecution execution, long durationNanos) {
    if (!settings.enabled() || storeFailed) {
      return;
    }
    try {
      String queryId =
          execution.sparkSession().sparkContext().applicationId() + "-" + execution.id();
      Instant startedAt = Instant.now().minusNanos(durationNanos);
      List<TelemetryEvent> events =
          QueryTelemetryExtractor.extract(execution.optimizedPlan(), queryId, startedAt);
      if (events.isEmpty()) {
        return;
      }
      TelemetryRecorder recorder = recorder();
      if (recorder != null) {
        events.forEach(recorder::record);
      }
    } catch (RuntimeException e) {
      LOG.warn("LakeOps telemetry skipped a query it could not read: {}", e.toString());
    }
  }

  @Override
  public void onFailure(String functionName, QueryExecution execution, Exception exception) {
    // Failed queries are not recorded, as in the Trino listener.
  }

  private TelemetryRecorder recorder() {
    try {
      return SharedTelemetryRecorders.recorderFor(settings);
    } catch (RuntimeException e) {
      storeFailed = true;
      LOG.warn(
          "LakeOps telemetry is off for this session: cannot open the store ({}); check {}",
          e.getMessage(),
          TelemetrySettings.STORE);
      return null;
    }
  }

  private static Map<String, String> entries(SparkConf conf) {
    Map<String, String> entries = new HashMap<>();
    for (Tuple2<String, String> entry : conf.getAllWithPrefix(TelemetrySettings.PREFIX)) {
      entries.put(TelemetrySettings.PREFIX + entry._1(), entry._2());
    }
    return entries;
  }
}
