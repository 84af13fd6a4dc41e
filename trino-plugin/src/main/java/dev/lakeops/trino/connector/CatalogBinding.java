package dev.lakeops.trino.connector;

import static java.util.Objects.requireNonNull;

import java.util.Map;

/**
 * What the catalog file says beyond the config bean.
 *
 * @param trinoCatalogName the Trino catalog name, e.g. {@code lakeops}
 * @param passThrough {@code lakeops.iceberg.*} properties with the prefix removed
 */
public record CatalogBinding(String trinoCatalogName, Map<String, String> passThrough) {
  public CatalogBinding {
    requireNonNull(trinoCatalogName, "trinoCatalogName is null");
    passThrough = Map.copyOf(requireNonNull(passThrough, "passThrough is null"));
  }
}
