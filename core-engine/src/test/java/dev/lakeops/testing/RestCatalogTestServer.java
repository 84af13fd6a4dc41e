package dev.lakeops.testing;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogProperties;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.jdbc.JdbcCatalog;
import org.apache.iceberg.rest.RESTCatalogAdapter;
import org.apache.iceberg.rest.RESTCatalogServlet;
import org.apache.iceberg.rest.RestServerCatalogAdapters;
import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Iceberg's own REST catalog server on 127.0.0.1, on a port of its own: the servlet and request
 * handler of {@code org.apache.iceberg.rest.RESTCatalogServer} (the server behind the {@code
 * apache/iceberg-rest-fixture} image) over a {@link JdbcCatalog} on a SQLite file, whose tables
 * live in an {@link S3TestServer} under {@code s3://bucket/warehouse} and are read and written
 * through {@code S3FileIO}. Clients connect with {@link #catalogProperties()}.
 *
 * <p>{@code RESTCatalogServer.start} itself binds every network interface on a port chosen in
 * advance (with {@code SO_REUSEPORT}, so two servers started at once could share it) and cannot say
 * which port it bound; this fixture builds the same Jetty handler chain on a loopback connector
 * that picks a free port.
 */
public final class RestCatalogTestServer implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(30);

  static {
    // Iceberg's REST servlet logs every error answer as an ERROR with its stack trace, the 404 of
    // a namespace or table that does not exist yet included; clients get the error either way.
    // A system property, because a simplelogger.properties in a test-jar is not the first on the
    // class path of the modules that use this fixture.
    System.setProperty(
        "org.slf4j.simpleLogger.log.org.apache.iceberg.rest.RESTCatalogServlet", "off");
  }

  private final Server server;
  private final RESTCatalogAdapter adapter;
  private final S3TestServer objectStore;
  private final String uri;

  private RestCatalogTestServer(
      Server server, RESTCatalogAdapter adapter, S3TestServer objectStore, String uri) {
    this.server = requireNonNull(server, "server is null");
    this.adapter = requireNonNull(adapter, "adapter is null");
    this.objectStore = requireNonNull(objectStore, "objectStore is null");
    this.uri = requireNonNull(uri, "uri is null");
  }

  /**
   * Starts a REST catalog whose table files live in {@code objectStore}, its SQLite catalog
   * database under {@code directory}, and waits until {@code GET /v1/config} answers.
   */
  public static RestCatalogTestServer start(S3TestServer objectStore, Path directory)
      throws Exception {
    return start(objectStore, directory, false);
  }

  /**
   * Like {@link #start(S3TestServer, Path)}, but the server hands the object store's access key and
   * secret to clients with every table it loads ({@code include-credentials=true}), the way
   * catalogs that vend storage credentials do: clients then need no keys of their own.
   */
  public static RestCatalogTestServer startVendingCredentials(
      S3TestServer objectStore, Path directory) throws Exception {
    return start(objectStore, directory, true);
  }

  private static RestCatalogTestServer start(
      S3TestServer objectStore, Path directory, boolean vendCredentials) throws Exception {
    requireNonNull(objectStore, "objectStore is null");
    Files.createDirectories(directory);
    Map<String, String> backendProperties = backendProperties(objectStore, directory);
    backendProperties.put("include-credentials", Boolean.toString(vendCredentials));
    Catalog backend =
        CatalogUtil.buildIcebergCatalog("rest_backend", backendProperties, new Configuration());
    RESTCatalogAdapter adapter = RestServerCatalogAdapters.serving(backend, backendProperties);
    Server server = new Server();
    try {
      ServerConnector connector = new ServerConnector(server);
      connector.setHost("127.0.0.1");
      connector.setPort(0);
      server.addConnector(connector);
      server.setHandler(servletContext(adapter));
      server.start();
      String uri = "http://127.0.0.1:" + connector.getLocalPort();
      awaitConfigEndpoint(uri);
      return new RestCatalogTestServer(server, adapter, objectStore, uri);
    } catch (Exception | AssertionError e) {
      try (adapter) {
        server.stop();
      } catch (Exception closing) {
        e.addSuppressed(closing);
      }
      throw e;
    }
  }

  /** The backend catalog: JDBC on SQLite, the warehouse in the object store, S3FileIO. */
  private static Map<String, String> backendProperties(S3TestServer objectStore, Path directory) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(CatalogProperties.CATALOG_IMPL, JdbcCatalog.class.getName());
    properties.put(CatalogProperties.URI, "jdbc:sqlite:" + directory.resolve("rest-catalog.db"));
    properties.put("jdbc.schema-version", "V1");
    properties.put(CatalogProperties.WAREHOUSE_LOCATION, objectStore.location("warehouse"));
    properties.putAll(objectStore.fileIoProperties());
    return properties;
  }

  /** What {@code RESTCatalogServer.start} serves: the REST servlet on every path, gzip on. */
  private static ServletContextHandler servletContext(RESTCatalogAdapter adapter) {
    ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
    context.addServlet(new ServletHolder(new RESTCatalogServlet(adapter)), "/*");
    CompressionHandler compression = new CompressionHandler();
    compression.putCompression(new GzipCompression());
    context.insertHandler(compression);
    return context;
  }

  private static void awaitConfigEndpoint(String uri) {
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(uri + "/v1/config"))
            .timeout(Duration.ofSeconds(5))
            .GET()
            .build();
    Conditions.await(
        "the REST catalog at " + uri + " to answer GET /v1/config",
        START_TIMEOUT,
        () -> answersOk(client, request));
  }

  private static boolean answersOk(HttpClient client, HttpRequest request) {
    try {
      return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** {@code http://127.0.0.1:PORT}, the REST catalog's base URI. */
  public String uri() {
    return uri;
  }

  /**
   * Properties of an Iceberg REST catalog client of this server ({@code type=rest}, {@code uri})
   * with the {@code S3FileIO} properties it reads and writes table files with.
   */
  public Map<String, String> catalogProperties() {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("type", "rest");
    properties.put(CatalogProperties.URI, uri);
    properties.putAll(objectStore.fileIoProperties());
    return properties;
  }

  /** Stops the HTTP server, then closes the backend catalog; safe to call twice. */
  @Override
  public void close() throws Exception {
    try (adapter) {
      server.stop();
    }
  }
}
