package dev.lakeops.spark.telemetry;

import dev.lakeops.telemetry.recorder.RecorderOptions;
import dev.lakeops.telemetry.recorder.TelemetryRecorder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One recorder per store and options in this JVM, however many Spark sessions register the
 * listener. Recorders are closed (queued events written) when the JVM shuts down.
 */
final class SharedTelemetryRecorders {
  private static final Map<Key, TelemetryRecorder> RECORDERS = new ConcurrentHashMap<>();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(SharedTelemetryRecorders::closeAll, "lakeops-telemetry-shutdown"));
  }

  private SharedTelemetryRecorders() {}

  /** The recorder for {@code settings}, opening (and migrating) its store on first use. */
  static TelemetryRecorder recorderFor(TelemetrySettings settings) {
    Key key =
        new Key(Objects.toString(settings.storeConfiguration(), ""), settings.recorderOptions());
    return RECORDERS.computeIfAbsent(
        key,
        ignored ->
            TelemetryRecorder.open(settings.storeConfiguration(), settings.recorderOptions()));
  }

  /** Closes every recorder; later queries open them again. */
  static void closeAll() {
    List<TelemetryRecorder> open = new ArrayList<>(RECORDERS.values());
    RECORDERS.clear();
    open.forEach(TelemetryRecorder::close);
  }

  private record Key(String store, RecorderOptions options) {}
}
