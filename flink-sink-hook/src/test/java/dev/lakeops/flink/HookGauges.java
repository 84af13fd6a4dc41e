package dev.lakeops.flink;

import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Metric;
import org.apache.flink.metrics.MetricConfig;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.reporter.MetricReporter;
import org.apache.flink.metrics.reporter.MetricReporterFactory;

/**
 * A Flink metric reporter for tests: keeps the hook's gauges (group {@code lakeops}) so a test
 * reads the counters the way an operator's dashboard would, even after the job finished.
 */
public final class HookGauges implements MetricReporterFactory {
  private static final Map<String, Gauge<?>> GAUGES = new ConcurrentHashMap<>();

  /** A MiniCluster configuration with this reporter installed. */
  static Configuration configuration() {
    Configuration configuration = new Configuration();
    configuration.setString("metrics.reporter.hook.factory.class", HookGauges.class.getName());
    return configuration;
  }

  static void clear() {
    GAUGES.clear();
  }

  /**
   * The hook gauge {@code name}, e.g. {@code failures}; fails when the hook never registered it.
   */
  static long value(String name) {
    Gauge<?> gauge = GAUGES.get(name);
    if (gauge == null) {
      throw new AssertionError("No hook gauge " + name + "; registered: " + GAUGES.keySet());
    }
    return ((Number) gauge.getValue()).longValue();
  }

  @Override
  public MetricReporter createMetricReporter(Properties properties) {
    return new Reporter();
  }

  private static final class Reporter implements MetricReporter {
    @Override
    public void open(MetricConfig config) {}

    @Override
    public void close() {}

    @Override
    public void notifyOfAddedMetric(Metric metric, String name, MetricGroup group) {
      if (metric instanceof Gauge<?> gauge
          && group.getMetricIdentifier(name).contains(".lakeops.")) {
        GAUGES.put(name, gauge);
      }
    }

    @Override
    public void notifyOfRemovedMetric(Metric metric, String name, MetricGroup group) {
      // kept: the test reads the counters after the job
    }
  }
}
