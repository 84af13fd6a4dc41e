package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import dev.lakeops.unit.ByteSize;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How a rewrite reads its input files, parsed and checked once from the rewrite options ({@code
 * --option io.max-concurrent-requests=64}).
 *
 * @param prefetch whether the inputs are fetched ahead of the rewrite, many at a time
 * @param maxConcurrentRequests requests in flight at most while fetching ahead, whatever the number
 *     of cores or concurrent file groups
 * @param wholeObjectReadBytes files up to this size are read with one request for the whole object
 *     (footer and data together); larger ones are read where the rewrite needs them
 */
public record ObjectReadOptions(
    boolean prefetch, int maxConcurrentRequests, long wholeObjectReadBytes) {
  /** {@code auto} (fetch ahead on object stores only), {@code true} or {@code false}. */
  public static final String PREFETCH = "io.prefetch";

  public static final String MAX_CONCURRENT_REQUESTS = "io.max-concurrent-requests";

  /** Sized for object stores: enough requests in flight to hide 20–50 ms of latency each. */
  public static final int MAX_CONCURRENT_REQUESTS_DEFAULT = 64;

  public static final String WHOLE_OBJECT_READ_BYTES = "io.whole-object-read-bytes";

  public static final long WHOLE_OBJECT_READ_BYTES_DEFAULT = ByteSize.ofMegabytes(8).bytes();

  /** The option keys of this group. */
  public static final Set<String> KEYS =
      Set.of(PREFETCH, MAX_CONCURRENT_REQUESTS, WHOLE_OBJECT_READ_BYTES);

  public ObjectReadOptions {
    check(maxConcurrentRequests > 0, MAX_CONCURRENT_REQUESTS, maxConcurrentRequests, "be positive");
    check(
        maxConcurrentRequests <= 1024,
        MAX_CONCURRENT_REQUESTS,
        maxConcurrentRequests,
        "be at most 1024");
    check(
        wholeObjectReadBytes >= 0,
        WHOLE_OBJECT_READ_BYTES,
        wholeObjectReadBytes,
        "not be negative");
  }

  /**
   * Reads the options of this group from {@code options}; {@code io.prefetch=auto} (the default)
   * turns fetching ahead on where {@code tableLocation} is in an object store.
   *
   * @throws IllegalArgumentException naming the key and the accepted values for a bad value
   */
  public static ObjectReadOptions parse(Map<String, String> options, String tableLocation) {
    requireNonNull(options, "options is null");
    requireNonNull(tableLocation, "tableLocation is null");
    String prefetch = options.getOrDefault(PREFETCH, "auto").trim().toLowerCase(Locale.ROOT);
    boolean enabled =
        switch (prefetch) {
          case "auto" -> ObjectStoreLocations.isObjectStore(tableLocation);
          case "true" -> true;
          case "false" -> false;
          default ->
              throw new IllegalArgumentException(
                  "Invalid value '"
                      + options.get(PREFETCH)
                      + "' for rewrite option '"
                      + PREFETCH
                      + "': use auto, true or false");
        };
    return new ObjectReadOptions(
        enabled,
        intValue(options, MAX_CONCURRENT_REQUESTS, MAX_CONCURRENT_REQUESTS_DEFAULT),
        bytesValue(options, WHOLE_OBJECT_READ_BYTES, WHOLE_OBJECT_READ_BYTES_DEFAULT));
  }

  private static int intValue(Map<String, String> options, String key, int defaultValue) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Integer.parseInt(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid value '" + value + "' for rewrite option '" + key + "': use a whole number", e);
    }
  }

  private static long bytesValue(Map<String, String> options, String key, long defaultValue) {
    String value = options.get(key);
    if (value == null) {
      return defaultValue;
    }
    try {
      return ByteSize.parse(value.trim()).bytes();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Invalid value '"
              + value
              + "' for rewrite option '"
              + key
              + "': use a number of bytes or a size such as 8MB",
          e);
    }
  }

  private static void check(boolean valid, String key, Object value, String requirement) {
    if (!valid) {
      throw new IllegalArgumentException(
          "Invalid value " + value + " for rewrite option '" + key + "': must " + requirement);
    }
  }
}
