package dev.lakeops.web;

import com.fasterxml.jackson.core.JsonProcessingException;

/**
 * The table page as one standalone HTML file: the charting library, the page's script and styles
 * and the table's data ({@code /api/tables/{table}}'s document) inlined, so it opens offline from
 * disk with no server.
 */
public final class TableReport {
  private TableReport() {}

  public static String html(ApiDocuments.TableDetail detail) {
    String json;
    try {
      json = Exchanges.JSON.writeValueAsString(detail);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Cannot render the report's data: " + e.getMessage(), e);
    }
    String page = WebAssets.tablePage();
    page =
        inline(
            page,
            "<link rel=\"stylesheet\" href=\"/static/uPlot.min.css\">",
            "<style>\n",
            "uPlot.min.css",
            "</style>");
    page =
        inline(
            page,
            "<link rel=\"stylesheet\" href=\"/static/dashboard.css\">",
            "<style>\n",
            "dashboard.css",
            "</style>");
    page =
        inline(
            page,
            "<script src=\"/static/uPlot.iife.min.js\"></script>",
            "<script>\n",
            "uPlot.iife.min.js",
            "</script>");
    page =
        replaceOnce(
            page,
            "<script src=\"/static/dashboard.js\"></script>",
            "<script>\nwindow.LAKEOPS_DATA = "
                + scriptSafe(json)
                + ";\n</script>\n<script>\n"
                + scriptSafe(asset("dashboard.js"))
                + "\n</script>");
    return replaceOnce(
        page,
        "<footer>Charts by uPlot (MIT), served from this jar.</footer>",
        "<footer>Written by lakeops report. Charts by uPlot (MIT License, Copyright (c) 2022 Leon Sorokin), inlined.</footer>");
  }

  private static String inline(String page, String tag, String open, String asset, String close) {
    return replaceOnce(page, tag, open + scriptSafe(asset(asset)) + "\n" + close);
  }

  private static String asset(String name) {
    return WebAssets.asset(name)
        .map(found -> new String(found.bytes(), java.nio.charset.StandardCharsets.UTF_8))
        .orElseThrow(
            () -> new IllegalStateException("Asset " + name + " is missing from the LakeOps jar"));
  }

  /** Keeps inlined text from closing its {@code <script>} or {@code <style>} element early. */
  private static String scriptSafe(String text) {
    return text.replace("</script", "<\\/script").replace("</style", "<\\/style");
  }

  private static String replaceOnce(String page, String target, String replacement) {
    int at = page.indexOf(target);
    if (at < 0) {
      throw new IllegalStateException("The table page template lacks " + target);
    }
    return page.substring(0, at) + replacement + page.substring(at + target.length());
  }
}
