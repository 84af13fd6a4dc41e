package dev.lakeops.members;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lakeops.advise.TelemetryFixtures;
import dev.lakeops.ledger.JdbcMemberTable;
import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.OwnerClaim;
import dev.lakeops.telemetry.store.StoreLocation;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members of one real PostgreSQL store dividing a lake's tables, and a SQLite store refusing two.
 */
class LakeMembershipTest {
  private static final String CATALOG = "lakeops";

  @TempDir Path directory;

  private final List<AutoCloseable> opened = new ArrayList<>();
  private final List<MemberRow> deaths = new CopyOnWriteArrayList<>();
  private String schema;

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable closeable : opened) {
      closeable.close();
    }
    if (schema != null) {
      execute("DROP SCHEMA " + schema + " CASCADE");
    }
  }

  @Test
  void membersDivideTheTablesAndANewcomerGetsItsShare() throws Exception {
    StoreLocation store = postgresql();
    List<String> tables = tables(20);
    LakeMembership first = join(store);
    assertThat(first.refresh(tables, Set.of()).owned()).hasSize(20);

    LakeMembership second = join(store);
    assertThat(second.refresh(tables, Set.of()).owned()).as("still the first's").isEmpty();
    String busy =
        tables.stream().filter(table -> !owns(first, second, table)).findFirst().orElseThrow();
    Ownership handedOver = first.refresh(tables, Set.of(busy));
    assertThat(handedOver.owned()).contains(busy).hasSizeLessThan(20);
    Ownership taken = second.refresh(tables, Set.of());
    assertThat(taken.owned()).isNotEmpty().doesNotContain(busy);
    assertThat(handedOver.liveMembers()).hasSize(2);

    Ownership firstAfter = first.refresh(tables, Set.of());
    Ownership secondAfter = second.refresh(tables, Set.of());
    Set<String> all = new HashSet<>(firstAfter.owned());
    all.addAll(secondAfter.owned());
    assertThat(all).hasSize(20);
    assertThat(firstAfter.owned()).doesNotContainAnyElementsOf(secondAfter.owned());
    assertThat(firstAfter.owned().size()).isBetween(4, 16);
    assertThat(deaths).isEmpty();
  }

  @Test
  void aDeadMembersTablesAreTakenAndItIsReportedOnce() throws Exception {
    StoreLocation store = postgresql();
    List<String> tables = tables(6);
    MemberRow dead =
        new MemberRow(
            "1@elsewhere/1",
            CATALOG,
            "elsewhere",
            1,
            "1@elsewhere",
            Instant.now().minusSeconds(600),
            Instant.now().minusSeconds(300),
            Duration.ofSeconds(60));
    try (JdbcMemberTable members = JdbcMemberTable.open(store)) {
      members.register(dead);
      members.claim(
          CATALOG,
          dead.memberId(),
          tables.stream().map(table -> new OwnerClaim(table, Optional.empty())).toList(),
          Instant.now());
    }
    LakeMembership first = join(store);
    LakeMembership second = join(store);

    Ownership firstLook = first.refresh(tables, Set.of());
    Ownership secondLook = second.refresh(tables, Set.of());

    assertThat(deaths).extracting(MemberRow::memberId).containsExactly("1@elsewhere/1");
    Set<String> all = new HashSet<>(firstLook.owned());
    all.addAll(secondLook.owned());
    assertThat(all).containsExactlyInAnyOrderElementsOf(tables);
    try (JdbcMemberTable members = JdbcMemberTable.open(store)) {
      assertThat(members.members(CATALOG))
          .extracting(MemberRow::memberId)
          .doesNotContain("1@elsewhere/1");
    }
  }

  @Test
  void aSqliteStoreRefusesASecondLiveMember() {
    StoreLocation store = StoreLocation.sqliteFile(directory.resolve("lakeops.db"));
    join(store);

    assertThatThrownBy(() -> join(store))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("another serve (pid " + ProcessHandle.current().pid() + " on ")
        .hasMessageEndingWith(
            ") already maintains catalog lakeops with store "
                + store.describe()
                + ": a SQLite store stays single-process; to run several serve processes, point"
                + " them all at one PostgreSQL store (--store jdbc:postgresql://...)");
  }

  private static boolean owns(LakeMembership first, LakeMembership second, String table) {
    return RendezvousHashing.ownerOf(table, List.of(first.memberId(), second.memberId()))
        .orElseThrow()
        .equals(first.memberId());
  }

  private LakeMembership join(StoreLocation store) {
    LakeMembership membership =
        LakeMembership.join(
            store, CATALOG, Duration.ofSeconds(30), Clock.systemUTC(), deaths::add, line -> {});
    opened.add(membership);
    return membership;
  }

  private static List<String> tables(int count) {
    List<String> tables = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      tables.add("db.t" + index);
    }
    return tables;
  }

  private StoreLocation postgresql() throws SQLException {
    String url = TelemetryFixtures.POSTGRESQL_URL;
    try (Connection connection = DriverManager.getConnection(url)) {
      assumeTrue(connection.isValid(5));
    } catch (SQLException e) {
      assumeTrue(false, "PostgreSQL is not reachable: " + e.getMessage());
    }
    schema = "lakeops_members_" + UUID.randomUUID().toString().replace("-", "");
    execute("CREATE SCHEMA " + schema);
    return StoreLocation.parse(url + (url.contains("?") ? "&" : "?") + "currentSchema=" + schema);
  }

  private static void execute(String sql) throws SQLException {
    try (Connection connection = DriverManager.getConnection(TelemetryFixtures.POSTGRESQL_URL);
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }
}
