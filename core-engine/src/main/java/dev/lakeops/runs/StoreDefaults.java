package dev.lakeops.runs;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Where the daemon's state and the run ledger live when {@code --store} is not given: {@code
 * .lakeops/lakeops.db} under a local {@code --warehouse}, else {@code ~/.lakeops/lakeops.db}.
 */
public final class StoreDefaults {
  /** The store of catalogs without a local warehouse directory. */
  public static final String HOME_STORE = "sqlite:~/.lakeops/lakeops.db";

  /** The value of {@code --store} that records nothing. */
  public static final String NONE = "none";

  private StoreDefaults() {}

  /** The store configuration for {@code store} as given (may be null) and the warehouse flag. */
  public static String configuration(Optional<String> store, Optional<Path> warehouse) {
    if (store.isPresent() && !store.get().isBlank()) {
      return store.get().strip();
    }
    return warehouse
        .map(
            directory ->
                "sqlite:" + directory.toAbsolutePath().resolve(".lakeops").resolve("lakeops.db"))
        .orElse(HOME_STORE);
  }
}
