package dev.lakeops.web;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** {@code /} (the overview), {@code /tables/{table}} (a table's page) and {@code /static/*}. */
final class PageHandler implements HttpHandler {
  private static final String HTML = "text/html; charset=utf-8";
  private static final String STATIC = "/static/";
  private static final String TABLES = "/tables/";

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    if (!Exchanges.readOnly(exchange)) {
      return;
    }
    String path = exchange.getRequestURI().getPath();
    if (path.equals("/") || path.equals("/index.html")) {
      Exchanges.send(
          exchange, 200, HTML, WebAssets.overviewPage().getBytes(StandardCharsets.UTF_8));
    } else if (path.startsWith(TABLES) && path.length() > TABLES.length()) {
      Exchanges.send(exchange, 200, HTML, WebAssets.tablePage().getBytes(StandardCharsets.UTF_8));
    } else if (path.startsWith(STATIC)) {
      Optional<WebAssets.Asset> asset = WebAssets.asset(path.substring(STATIC.length()));
      if (asset.isPresent()) {
        Exchanges.send(exchange, 200, asset.get().contentType(), asset.get().bytes());
      } else {
        Exchanges.text(exchange, 404, "No such file: " + path + "\n");
      }
    } else {
      Exchanges.text(exchange, 404, "No such page: " + path + " (the overview is at /)\n");
    }
  }
}
