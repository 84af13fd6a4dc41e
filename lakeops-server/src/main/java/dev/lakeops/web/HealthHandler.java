package dev.lakeops.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.function.BooleanSupplier;

/** {@code GET /health}: 200 {@code ok} while the daemon works, 503 once it stops. */
final class HealthHandler implements HttpHandler {
  private final BooleanSupplier working;

  HealthHandler(BooleanSupplier working) {
    this.working = working;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!Exchanges.readOnly(exchange)) {
      return;
    }
    if (working.getAsBoolean()) {
      Exchanges.text(exchange, 200, "ok\n");
    } else {
      Exchanges.text(exchange, 503, "stopping\n");
    }
  }
}
