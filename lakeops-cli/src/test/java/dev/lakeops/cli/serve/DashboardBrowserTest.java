package dev.lakeops.cli.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.CommandLineRun;
import dev.lakeops.web.HeadlessChromium;
import dev.lakeops.web.ObservedLake;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Loads the dashboard in headless Chromium as a person would, waits for the scripts, and checks
 * that the table list and the charts were drawn (uPlot's canvases inside the containers the page
 * marks {@code data-rendered}). {@code -Dlakeops.dashboardScreenshot=FILE} also keeps a screenshot
 * of the overview (how docs/images/dashboard.png is made).
 */
class DashboardBrowserTest {
  @TempDir static Path directory;
  private static ObservedLake lake;
  private static HeadlessChromium browser;

  @BeforeAll
  static void start() throws Exception {
    browser = HeadlessChromium.find(Files.createDirectories(directory.resolve("profile")));
    lake = new ObservedLake(Files.createDirectories(directory.resolve("warehouse")));
  }

  @AfterAll
  static void stop() throws Exception {
    if (lake != null) {
      lake.close();
    }
  }

  @Test
  void theOverviewListsTablesWorstFirstAndDrawsTheirSparklines() throws Exception {
    String dom = browser.dumpDom(lake.server.url() + "/");

    assertThat(dom).contains("data-ready=\"true\"");
    int events = dom.indexOf("data-table=\"db.events\"");
    int customers = dom.indexOf("data-table=\"db.customers\"");
    int orders = dom.indexOf("data-table=\"db.orders\"");
    assertThat(events).isPositive().isLessThan(customers);
    assertThat(customers).isLessThan(orders);
    // sparklines of the two tables with a day of history, each a uPlot canvas
    assertThat(dom)
        .containsPattern("class=\"sparkline\" data-rendered=\"true\"><div class=\"uplot");
    assertThat(countOf(dom, "data-rendered=\"true\"")).isEqualTo(3);
    assertThat(countOf(dom, "<canvas")).isEqualTo(3);
    assertThat(dom)
        .contains(
            "part=0: 16 small files &gt;= 12", "96.0 MB of 512.0 MB", "table locked by flink");

    String screenshot = System.getProperty("lakeops.dashboardScreenshot");
    if (screenshot != null) {
      Path png = directory.resolve("dashboard.png");
      browser.screenshot(lake.server.url() + "/", png, 1400, 900);
      Files.copy(png, Path.of(screenshot), StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Test
  void theTablePageDrawsHealthFileSizesAndBytesRewritten() throws Exception {
    String dom = browser.dumpDom(lake.server.url() + "/tables/db.orders");

    assertThat(dom)
        .contains(
            "data-ready=\"true\"", "<span id=\"table-name\" class=\"subtitle\">db.orders</span>");
    for (String chart : new String[] {"health-chart", "sizes-chart", "rewritten-chart"}) {
      assertThat(dom).contains("id=\"" + chart + "\" data-rendered=\"true\"");
    }
    assertThat(countOf(dom, "<canvas")).isEqualTo(3);
    assertThat(dom).contains("table:db.orders", "namespace:db", "12 small files &gt;= 5");

    String screenshot = System.getProperty("lakeops.dashboardScreenshot");
    if (screenshot != null) {
      Path png = directory.resolve("table.png");
      browser.screenshot(lake.server.url() + "/tables/db.orders", png, 1400, 1100);
      Files.copy(
          png,
          Path.of(screenshot.replace(".png", "-table.png")),
          StandardCopyOption.REPLACE_EXISTING);
    }
  }

  @Test
  void theStandaloneReportRendersFromDiskWithoutAServer() throws Exception {
    Path html = directory.resolve("orders.html");
    CommandLineRun run =
        CommandLineRun.of(
            "report",
            "db.orders",
            "--warehouse",
            directory.resolve("warehouse").toString(),
            "--store",
            "none",
            "--html",
            html.toString());
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    assertThat(run.stdout()).contains("Wrote the report of db.orders to " + html);
    assertThat(Files.readString(html)).doesNotContain("src=\"/static/", "href=\"/static/");

    String dom = browser.dumpDom(html.toUri().toString());

    assertThat(dom)
        .contains(
            "data-ready=\"true\"",
            "id=\"health-chart\" data-rendered=\"true\"",
            "id=\"sizes-chart\" data-rendered=\"true\"");
    assertThat(countOf(dom, "<canvas")).isEqualTo(3);
  }

  private static int countOf(String text, String part) {
    int count = 0;
    for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
      count++;
    }
    return count;
  }
}
