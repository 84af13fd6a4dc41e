package dev.lakeops.web;

import static java.util.Objects.requireNonNull;

import com.sun.net.httpserver.HttpServer;
import dev.lakeops.observe.LakeMetrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The daemon's HTTP server (the JDK's {@code com.sun.net.httpserver}): the dashboard pages, the
 * JSON API, {@code /metrics} and {@code /health}. Read-only: it answers GET and HEAD only, and no
 * endpoint changes a table.
 */
public final class DashboardServer implements AutoCloseable {
  /** The address bound unless told otherwise. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** Threads serving requests. */
  static final int THREADS = 2;

  /** How long {@link #close()} lets requests in flight finish. */
  static final Duration STOP_GRACE = Duration.ofSeconds(1);

  private final HttpServer server;
  private final ExecutorService executor;

  private DashboardServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts serving on {@code address} (port 0 picks a free one).
   *
   * @param working answers whether the daemon is working: {@code /health} says 200 while true
   */
  public static DashboardServer start(
      InetSocketAddress address, DashboardData data, LakeMetrics metrics, BooleanSupplier working) {
    requireNonNull(address, "address is null");
    requireNonNull(data, "data is null");
    requireNonNull(metrics, "metrics is null");
    requireNonNull(working, "working is null");
    HttpServer server;
    try {
      server = HttpServer.create(address, 0);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "Cannot serve HTTP on "
              + address.getHostString()
              + ":"
              + address.getPort()
              + ": "
              + e.getMessage()
              + " (choose another --http HOST:PORT)",
          e);
    }
    ExecutorService executor =
        Executors.newFixedThreadPool(
            THREADS,
            runnable -> {
              Thread thread = new Thread(runnable, "lakeops-http");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(executor);
    server.createContext("/", new PageHandler());
    server.createContext("/api/", new ApiHandler(data));
    server.createContext("/metrics", new MetricsHandler(metrics));
    server.createContext("/health", new HealthHandler(working));
    server.start();
    return new DashboardServer(server, executor);
  }

  /** Parses {@code HOST:PORT} or {@code :PORT} / {@code PORT} (then {@link #DEFAULT_HOST}). */
  public static InetSocketAddress parseAddress(String text) {
    requireNonNull(text, "text is null");
    int colon = text.lastIndexOf(':');
    String host = colon <= 0 ? DEFAULT_HOST : text.substring(0, colon);
    String port = colon < 0 ? text : text.substring(colon + 1);
    try {
      int number = Integer.parseInt(port);
      if (number < 0 || number > 65535) {
        throw new NumberFormatException();
      }
      return new InetSocketAddress(host, number);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid --http address '" + text + "': use HOST:PORT, e.g. 127.0.0.1:8080", e);
    }
  }

  /** The address actually bound (with the chosen port when 0 was asked for). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** The base URL, e.g. {@code http://127.0.0.1:8080}. */
  public String url() {
    return "http://" + address().getHostString() + ":" + address().getPort();
  }

  @Override
  public void close() {
    server.stop((int) STOP_GRACE.toSeconds());
    executor.shutdownNow();
  }
}
