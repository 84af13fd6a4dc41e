package dev.lakeops.spark.telemetry;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.recorder.RecorderOptions;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.spark.network.util.JavaUtils;

/**
 * The listener's {@code spark.lakeops.telemetry.*} settings, parsed once. Every unknown key under
 * the prefix and every bad value is rejected with a message naming the key.
 *
 * @param enabled false turns the listener off
 * @param store the telemetry store configuration string ({@code sqlite:<path>} or {@code
 *     jdbc:postgresql://...}); empty means the telemetry module's default SQLite file
 * @param recorderOptions queue, batch, flush interval and retention of the recorder
 */
public record TelemetrySettings(
    boolean enabled, Optional<String> store, RecorderOptions recorderOptions) {
  public static final String PREFIX = "spark.lakeops.telemetry.";
  public static final String ENABLED = PREFIX + "enabled";
  public static final String STORE = PREFIX + "store";
  public static final String QUEUE_CAPACITY = PREFIX + "queue-capacity";
  public static final String MAXIMUM_BATCH_SIZE = PREFIX + "maximum-batch-size";
  public static final String FLUSH_INTERVAL = PREFIX + "flush-interval";
  public static final String RETENTION = PREFIX + "retention";

  /** The listener records when it is registered, unless {@link #ENABLED} says false. */
  public static final boolean ENABLED_DEFAULT = true;

  /** {@link #RETENTION} value that keeps events forever. */
  public static final String RETENTION_FOREVER = "forever";

  private static final Set<String> KEYS =
      Set.of(ENABLED, STORE, QUEUE_CAPACITY, MAXIMUM_BATCH_SIZE, FLUSH_INTERVAL, RETENTION);

  public TelemetrySettings {
    requireNonNull(store, "store is null");
    requireNonNull(recorderOptions, "recorderOptions is null");
  }

  /** Reads the settings from Spark configuration entries; other keys are ignored. */
  public static TelemetrySettings parse(Map<String, String> configuration) {
    requireNonNull(configuration, "configuration is null");
    for (String key : configuration.keySet()) {
      if (key.startsWith(PREFIX) && !KEYS.contains(key)) {
        throw new IllegalArgumentException(
            "Unknown setting "
                + key
                + ": valid settings are "
                + String.join(", ", new TreeSet<>(KEYS)));
      }
    }
    boolean enabled = parseBoolean(configuration, ENABLED, ENABLED_DEFAULT);
    Optional<String> store =
        Optional.ofNullable(configuration.get(STORE))
            .map(String::trim)
            .filter(text -> !text.isEmpty());
    RecorderOptions options = RecorderOptions.defaults();
    if (configuration.containsKey(QUEUE_CAPACITY)) {
      options = options.withQueueCapacity(parsePositiveInt(configuration, QUEUE_CAPACITY));
    }
    if (configuration.containsKey(MAXIMUM_BATCH_SIZE)) {
      options = options.withMaximumBatchSize(parsePositiveInt(configuration, MAXIMUM_BATCH_SIZE));
    }
    if (configuration.containsKey(FLUSH_INTERVAL)) {
      options = options.withFlushInterval(parseDuration(configuration, FLUSH_INTERVAL));
    }
    if (configuration.containsKey(RETENTION)) {
      String value = configuration.get(RETENTION).trim();
      options =
          options.withRetention(
              value.equalsIgnoreCase(RETENTION_FOREVER)
                  ? Optional.empty()
                  : Optional.of(parseDuration(configuration, RETENTION)));
    }
    return new TelemetrySettings(enabled, store, options);
  }

  /** The store configuration string as the telemetry module takes it (null for its default). */
  String storeConfiguration() {
    return store.orElse(null);
  }

  private static boolean parseBoolean(
      Map<String, String> configuration, String key, boolean defaultValue) {
    String value = configuration.get(key);
    if (value == null) {
      return defaultValue;
    }
    return switch (value.trim().toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw invalid(key, value, "use true or false");
    };
  }

  private static int parsePositiveInt(Map<String, String> configuration, String key) {
    String value = configuration.get(key);
    try {
      int number = Integer.parseInt(value.trim());
      if (number > 0) {
        return number;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw invalid(key, value, "use a positive whole number, e.g. 10000");
  }

  private static Duration parseDuration(Map<String, String> configuration, String key) {
    String value = configuration.get(key);
    try {
      long millis = JavaUtils.timeStringAsMs(value.trim());
      if (millis > 0) {
        return Duration.ofMillis(millis);
      }
    } catch (RuntimeException e) {
      // reported below
    }
    throw invalid(key, value, "use a positive duration with a unit, e.g. 500ms, 30s, 90d");
  }

  private static IllegalArgumentException invalid(String key, String value, String fix) {
    return new IllegalArgumentException("Invalid " + key + "=" + value + ": " + fix);
  }
}
