package dev.lakeops.spark.bench;

import static java.util.Objects.requireNonNull;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import org.gaul.s3proxy.blobstore.BlobStore;
import org.gaul.s3proxy.blobstore.ForwardingBlobStore;
import org.gaul.s3proxy.middleware.LatencyBlobStore;

/**
 * Serves a blob store either as it is or through s3proxy's own latency middleware ({@link
 * LatencyBlobStore}, the same latency on every operation), switched between requests: the benchmark
 * writes and copies its tables without latency and turns it on for the timed phases only.
 */
final class LatencySwitch extends ForwardingBlobStore {
  private final BlobStore plain;
  private final Map<Duration, BlobStore> withLatency = new ConcurrentHashMap<>();
  private volatile BlobStore current;

  LatencySwitch(BlobStore plain) {
    super(plain);
    this.plain = requireNonNull(plain, "plain is null");
    this.current = plain;
  }

  /** Every request from now on waits {@code latency} before it is served; zero turns it off. */
  void set(Duration latency) {
    requireNonNull(latency, "latency is null");
    current = latency.isZero() ? plain : withLatency.computeIfAbsent(latency, this::latencyStore);
  }

  @Override
  public BlobStore delegate() {
    return current;
  }

  private BlobStore latencyStore(Duration latency) {
    Properties properties = new Properties();
    properties.setProperty(
        "s3proxy.latency-blobstore.*.latency", Long.toString(latency.toMillis()));
    try {
      // the factory s3proxy's own Main uses is package-private
      Method factory =
          LatencyBlobStore.class.getDeclaredMethod(
              "newLatencyBlobStore", BlobStore.class, Map.class, Map.class);
      factory.setAccessible(true);
      return (BlobStore)
          factory.invoke(
              null,
              plain,
              LatencyBlobStore.parseLatencies(properties),
              LatencyBlobStore.parseSpeeds(properties));
    } catch (InvocationTargetException e) {
      throw new IllegalStateException("Cannot add latency to the blob store", e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(
          "s3proxy's LatencyBlobStore.newLatencyBlobStore is missing: use s3proxy 4.1.0", e);
    }
  }
}
