package dev.lakeops.spark.telemetry;

import java.sql.SQLException;
import java.util.Map;
import java.util.Set;

/** Test access to the listener's recorders from other packages. */
public final class TelemetryForTests {
  private TelemetryForTests() {}

  /** Writes what every recorder holds, then reads all events of the store at {@code jdbcUrl}. */
  public static Map<String, Set<String>> closeRecordersAndRead(String jdbcUrl) throws SQLException {
    SharedTelemetryRecorders.closeAll();
    return new RecordedTelemetry(jdbcUrl).newEvents();
  }
}
