package dev.lakeops.telemetry.store;

/** Opens a telemetry store from a configuration string, see {@link StoreLocation#parse}. */
public final class TelemetryStoreFactory {
  private TelemetryStoreFactory() {}

  /**
   * Opens and migrates the store named by {@code configuration}: {@code sqlite:<path>} or {@code
   * jdbc:postgresql://...}; null or blank means {@link StoreLocation#DEFAULT_CONFIGURATION}.
   */
  public static TelemetryStore open(String configuration) {
    return JdbcTelemetryStore.open(StoreLocation.parse(configuration));
  }
}
