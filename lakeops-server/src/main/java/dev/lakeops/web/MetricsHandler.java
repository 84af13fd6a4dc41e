package dev.lakeops.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import dev.lakeops.observe.LakeMetrics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/**
 * {@code GET /metrics}: Prometheus exposition, in the format the scraper's Accept header asks for.
 */
final class MetricsHandler implements HttpHandler {
  private final LakeMetrics metrics;

  MetricsHandler(LakeMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!Exchanges.readOnly(exchange)) {
      return;
    }
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    String contentType = metrics.write(exchange.getRequestHeaders().getFirst("Accept"), body);
    Exchanges.send(exchange, 200, contentType, body.toByteArray());
  }
}
