package dev.lakeops.web;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The pages, scripts and styles served by the dashboard, all from the jar: the charting library
 * (uPlot, MIT) comes from its WebJar, the rest from this package's resources. Nothing is fetched
 * from the network.
 */
public final class WebAssets {
  private static final String WEBJAR_PROPERTIES =
      "/META-INF/maven/org.webjars.npm/uplot/pom.properties";
  private static final String OWN = "/dev/lakeops/web/";

  /** Asset name under {@code /static/} to its resource path and content type. */
  private static final Map<String, Asset> ASSETS =
      Map.of(
          "uPlot.iife.min.js",
              new Asset(webjar("dist/uPlot.iife.min.js"), "text/javascript; charset=utf-8"),
          "uPlot.min.css", new Asset(webjar("dist/uPlot.min.css"), "text/css; charset=utf-8"),
          "uPlot.LICENSE", new Asset(webjar("LICENSE"), "text/plain; charset=utf-8"),
          "dashboard.js", new Asset(OWN + "dashboard.js", "text/javascript; charset=utf-8"),
          "dashboard.css", new Asset(OWN + "dashboard.css", "text/css; charset=utf-8"));

  private WebAssets() {}

  /** A static asset by its name under {@code /static/}. */
  public static Optional<Asset> asset(String name) {
    return Optional.ofNullable(ASSETS.get(name));
  }

  /** The overview page. */
  public static String overviewPage() {
    return text(OWN + "index.html");
  }

  /** The per-table page. */
  public static String tablePage() {
    return text(OWN + "table.html");
  }

  /** A resource's text, UTF-8. */
  public static String text(String resource) {
    return new String(bytes(resource), StandardCharsets.UTF_8);
  }

  static byte[] bytes(String resource) {
    try (InputStream in = WebAssets.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "Resource " + resource + " is missing from the LakeOps jar");
      }
      return in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read resource " + resource, e);
    }
  }

  private static String webjar(String file) {
    Properties properties = new Properties();
    try (InputStream in = WebAssets.class.getResourceAsStream(WEBJAR_PROPERTIES)) {
      if (in == null) {
        throw new IllegalStateException(
            "The uPlot WebJar (org.webjars.npm:uplot) is missing from the classpath");
      }
      properties.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read " + WEBJAR_PROPERTIES, e);
    }
    return "/META-INF/resources/webjars/uplot/" + properties.getProperty("version") + "/" + file;
  }

  /**
   * @param resource classpath resource
   * @param contentType its HTTP content type
   */
  public record Asset(String resource, String contentType) {
    public byte[] bytes() {
      return WebAssets.bytes(resource);
    }
  }
}
