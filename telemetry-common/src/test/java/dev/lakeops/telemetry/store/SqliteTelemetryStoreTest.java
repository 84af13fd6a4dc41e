package dev.lakeops.telemetry.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteTelemetryStoreTest extends AbstractTelemetryStoreTest {
  @TempDir Path directory;

  @Override
  StoreLocation newLocation() {
    return StoreLocation.parse("sqlite:" + directory.resolve("nested/telemetry.db"));
  }

  @Test
  void factoryCreatesTheFileAndItsDirectories() {
    Path file = directory.resolve("other/deeper/telemetry.db");
    try (TelemetryStore store = TelemetryStoreFactory.open("sqlite:" + file)) {
      assertThat(store.countEvents()).isZero();
    }
    assertThat(Files.isRegularFile(file)).isTrue();
  }
}
