package dev.lakeops.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON API: {@code /api/tables?q=&sort=&offset=&limit=}, {@code /api/tables/{table}}, {@code
 * /api/runs?table=T&limit=N}, {@code /api/members}.
 */
final class ApiHandler implements HttpHandler {
  static final int MAXIMUM_RUNS = 1000;
  private static final String TABLES = "/api/tables";
  private static final String RUNS = "/api/runs";
  private static final String MEMBERS = "/api/members";

  private final DashboardData data;

  ApiHandler(DashboardData data) {
    this.data = data;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!Exchanges.readOnly(exchange)) {
      return;
    }
    String path = exchange.getRequestURI().getPath();
    try {
      if (path.equals(TABLES) || path.equals(TABLES + "/")) {
        Exchanges.json(
            exchange,
            200,
            data.lake(TableQuery.parse(query(exchange.getRequestURI().getRawQuery()))));
      } else if (path.startsWith(TABLES + "/")) {
        String table =
            URLDecoder.decode(path.substring(TABLES.length() + 1), StandardCharsets.UTF_8);
        Optional<ApiDocuments.TableDetail> detail = data.table(table);
        if (detail.isPresent()) {
          Exchanges.json(exchange, 200, detail.get());
        } else {
          Exchanges.json(
              exchange,
              404,
              Map.of(
                  "error",
                  "Unknown table '"
                      + table
                      + "': see /api/tables for the tables this daemon watches"));
        }
      } else if (path.equals(MEMBERS)) {
        Exchanges.json(exchange, 200, data.members());
      } else if (path.equals(RUNS)) {
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        Exchanges.json(
            exchange,
            200,
            data.runs(Optional.ofNullable(query.get("table")), limit(query.get("limit"))));
      } else {
        Exchanges.json(
            exchange,
            404,
            Map.of(
                "error",
                "Unknown endpoint "
                    + path
                    + ": use /api/tables, /api/tables/{table}, /api/runs or /api/members"));
      }
    } catch (IllegalArgumentException e) {
      Exchanges.json(exchange, 400, Map.of("error", e.getMessage()));
    }
  }

  private static int limit(String text) {
    if (text == null) {
      return DashboardData.LATEST_RUNS;
    }
    try {
      int limit = Integer.parseInt(text);
      if (limit < 1 || limit > MAXIMUM_RUNS) {
        throw new NumberFormatException();
      }
      return limit;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid limit '" + text + "': use a number from 1 to " + MAXIMUM_RUNS);
    }
  }

  static Map<String, String> query(String raw) {
    Map<String, String> parameters = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return parameters;
    }
    for (String pair : raw.split("&")) {
      int equals = pair.indexOf('=');
      String key =
          URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
      String value =
          equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
      parameters.put(key, value);
    }
    return parameters;
  }
}
