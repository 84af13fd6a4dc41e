package dev.lakeops.control;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.function.BooleanSupplier;

/** {@code --http HOST:PORT}: answers {@code GET /health} with 200 while the daemon runs. */
public final class HealthEndpoint implements AutoCloseable {
  private final HttpServer server;

  private HealthEndpoint(HttpServer server) {
    this.server = server;
  }

  /** Listens on {@code hostAndPort} ({@code 127.0.0.1:8080}, {@code :8080}); {@code running} says whether to answer 200. */
  public static HealthEndpoint start(String hostAndPort, BooleanSupplier running) {
    int colon = hostAndPort.lastIndexOf(':');
    if (colon < 0) {
      throw new IllegalArgumentException("Invalid --http '" + hostAndPort + "': use HOST:PORT, e.g. 127.0.0.1:8080");
    }
    String host = colon == 0 ? "0.0.0.0" : hostAndPort.substring(0, colon);
    int port;
    try {
      port = Integer.parseInt(hostAndPort.substring(colon + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("Invalid --http '" + hostAndPort + "': use HOST:PORT, e.g. 127.0.0.1:8080");
    }
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
      server.createContext("/health", exchange -> {
        boolean up = running.getAsBoolean();
        byte[] body = (up ? "ok\n" : "stopping\n").getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(up ? 200 : 503, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      });
      server.start();
      return new HealthEndpoint(server);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot listen on --http " + hostAndPort + ": " + e.getMessage(), e);
    }
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
