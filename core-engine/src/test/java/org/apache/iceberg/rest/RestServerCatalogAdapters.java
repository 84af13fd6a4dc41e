package org.apache.iceberg.rest;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import org.apache.iceberg.catalog.Catalog;

/**
 * The request handler of Iceberg's own REST catalog server ({@code RESTCatalogServer}, the server
 * behind the {@code apache/iceberg-rest-fixture} image), for {@link
 * dev.lakeops.testing.RestCatalogTestServer}. Its class and constructor are package-private, so
 * this one-method bridge lives in Iceberg's package in LakeOps's test sources.
 */
public final class RestServerCatalogAdapters {
  private RestServerCatalogAdapters() {}

  /**
   * The adapter {@code RESTCatalogServer.start} builds: serves {@code backend} and, when {@code
   * configuration} sets {@code include-credentials=true}, hands its storage credentials to clients.
   */
  public static RESTCatalogAdapter serving(Catalog backend, Map<String, String> configuration) {
    requireNonNull(backend, "backend is null");
    requireNonNull(configuration, "configuration is null");
    return new RESTServerCatalogAdapter(
        new RESTCatalogServer.CatalogContext(backend, Map.copyOf(configuration)));
  }
}
