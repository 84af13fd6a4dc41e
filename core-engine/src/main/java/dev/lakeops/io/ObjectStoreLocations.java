package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Set;

/**
 * Tells object-store locations (S3, GCS, Azure, ...) from file systems by their scheme. On an
 * object store every request costs tens of milliseconds before its first byte, so reads are issued
 * ahead and many at a time; on a file system they are not.
 */
public final class ObjectStoreLocations {
  private static final Set<String> OBJECT_STORE_SCHEMES =
      Set.of(
          "s3", "s3a", "s3n", "gs", "gcs", "abfs", "abfss", "wasb", "wasbs", "oss", "cos", "cosn",
          "obs", "r2");

  private ObjectStoreLocations() {}

  /** Whether {@code location} lives in an object store, judged by its scheme. */
  public static boolean isObjectStore(String location) {
    requireNonNull(location, "location is null");
    int colon = location.indexOf(':');
    if (colon <= 0) {
      return false;
    }
    return OBJECT_STORE_SCHEMES.contains(location.substring(0, colon).toLowerCase(Locale.ROOT));
  }
}
