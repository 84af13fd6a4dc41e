package dev.lakeops.telemetry.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class StoreLocationTest {
  private static final String HOME = System.getProperty("user.home");

  @Test
  void defaultsToSqliteInHome() {
    assertThat(StoreLocation.parse(null))
        .isEqualTo(StoreLocation.parse(" "))
        .isEqualTo(
            new StoreLocation(
                StoreKind.SQLITE, "jdbc:sqlite:" + Path.of(HOME, ".lakeops", "telemetry.db")));
  }

  @Test
  void resolvesRelativeSqlitePaths() {
    assertThat(StoreLocation.parse("sqlite:data/telemetry.db").jdbcUrl())
        .isEqualTo("jdbc:sqlite:" + Path.of("data/telemetry.db").toAbsolutePath());
  }

  @Test
  void passesPostgresqlUrlsThrough() {
    StoreLocation location =
        StoreLocation.parse("jdbc:postgresql://db:5432/lake?user=lakeops&password=secret");

    assertThat(location.kind()).isEqualTo(StoreKind.POSTGRESQL);
    assertThat(location.jdbcUrl())
        .isEqualTo("jdbc:postgresql://db:5432/lake?user=lakeops&password=secret");
    assertThat(location).hasToString("POSTGRESQL jdbc:postgresql://db:5432/lake?...");
  }

  @Test
  void rejectsUnknownStoresWithoutEchoingParameters() {
    assertThatThrownBy(() -> StoreLocation.parse("jdbc:mysql://db/lake?password=secret"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unsupported telemetry store 'jdbc:mysql://db/lake?...': use sqlite:<path> (default"
                + " sqlite:~/.lakeops/telemetry.db) or jdbc:postgresql://<host>:<port>/<database>");
  }

  @Test
  void rejectsSqliteWithoutPath() {
    assertThatThrownBy(() -> StoreLocation.parse("sqlite:"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Telemetry store 'sqlite:' names no file: use sqlite:<path>, e.g."
                + " sqlite:~/.lakeops/telemetry.db");
  }
}
