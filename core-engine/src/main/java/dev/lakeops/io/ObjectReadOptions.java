package dev.lakeops.io;

import static dev.lakeops.option.OptionCheck.between;
import static dev.lakeops.option.OptionCheck.notNegative;

import dev.lakeops.option.OptionType;
import dev.lakeops.option.OptionValues;
import dev.lakeops.option.RewriteOption;
import dev.lakeops.unit.ByteSize;
import java.util.List;
import java.util.Optional;

/**
 * The rewrite options of how a rewrite reads its input files ({@code --option
 * io.max-concurrent-requests=64}).
 *
 * @param prefetch whether the inputs are fetched ahead of the rewrite, many at a time
 * @param maxConcurrentRequests requests in flight at most while fetching ahead, whatever the number
 *     of cores or concurrent file groups
 * @param wholeObjectReadBytes files up to this size are read with one request for the whole object
 *     (footer and data together); larger ones are read where the rewrite needs them
 */
public record ObjectReadOptions(
    boolean prefetch, int maxConcurrentRequests, long wholeObjectReadBytes) {
  /** {@code auto} fetches ahead where the table lives in an object store, and only there. */
  public static final RewriteOption<Optional<Boolean>> PREFETCH =
      RewriteOption.of(
              "io.prefetch",
              OptionType.AUTO_BOOLEAN,
              "fetch the inputs ahead of the rewrite, many at a time")
          .withDefault("auto", values -> Optional.empty());

  /** Sized for object stores: enough requests in flight to hide 20–50 ms of latency each. */
  public static final RewriteOption<Integer> MAX_CONCURRENT_REQUESTS =
      RewriteOption.of(
              "io.max-concurrent-requests",
              OptionType.INTEGER,
              "requests in flight at most while fetching ahead")
          .withDefault(64)
          .mustSatisfy(between(1, 1024));

  public static final RewriteOption<Long> WHOLE_OBJECT_READ_BYTES =
      RewriteOption.of(
              "io.whole-object-read-bytes",
              OptionType.BYTE_SIZE,
              "files up to this size are read with one request for the whole object")
          .withDefault("8388608 (8 MB)", values -> ByteSize.ofMegabytes(8).bytes())
          .mustSatisfy(notNegative());

  /** The options of this group, in the order the docs list them. */
  public static final List<RewriteOption<?>> OPTIONS =
      List.of(PREFETCH, MAX_CONCURRENT_REQUESTS, WHOLE_OBJECT_READ_BYTES);

  public ObjectReadOptions {
    MAX_CONCURRENT_REQUESTS.checked(maxConcurrentRequests);
    WHOLE_OBJECT_READ_BYTES.checked(wholeObjectReadBytes);
  }

  /**
   * Reads this group from {@code values}; {@code io.prefetch=auto} (the default) turns fetching
   * ahead on where the table is in an object store.
   */
  public static ObjectReadOptions parse(OptionValues values) {
    boolean prefetch =
        values
            .value(PREFETCH)
            .orElseGet(() -> ObjectStoreLocations.isObjectStore(values.table().location()));
    return new ObjectReadOptions(
        prefetch, values.value(MAX_CONCURRENT_REQUESTS), values.value(WHOLE_OBJECT_READ_BYTES));
  }
}
