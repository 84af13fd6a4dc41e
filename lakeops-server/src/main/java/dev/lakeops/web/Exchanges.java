package dev.lakeops.web;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/** Writing responses: the only place that sends bytes back and refuses methods that would write. */
final class Exchanges {
  static final ObjectMapper JSON =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);

  private Exchanges() {}

  /** True for GET and HEAD; otherwise answers 405 and returns false. */
  static boolean readOnly(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    if (method.equals("GET") || method.equals("HEAD")) {
      return true;
    }
    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
    send(
        exchange,
        405,
        "text/plain; charset=utf-8",
        ("Method " + method + " not allowed: this server is read-only\n")
            .getBytes(StandardCharsets.UTF_8));
    return false;
  }

  static void json(HttpExchange exchange, int status, Object document) throws IOException {
    byte[] body;
    try {
      body = JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(document);
    } catch (JsonProcessingException e) {
      throw new IOException("Cannot render JSON: " + e.getMessage(), e);
    }
    send(exchange, status, "application/json", body);
  }

  static void text(HttpExchange exchange, int status, String text) throws IOException {
    send(exchange, status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8));
  }

  static void send(HttpExchange exchange, int status, String contentType, byte[] body)
      throws IOException {
    try (exchange) {
      exchange.getResponseHeaders().set("Content-Type", contentType);
      exchange.getResponseHeaders().set("Cache-Control", "no-store");
      boolean head = exchange.getRequestMethod().equals("HEAD");
      exchange.sendResponseHeaders(status, head ? -1 : body.length == 0 ? -1 : body.length);
      if (!head && body.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    }
  }
}
