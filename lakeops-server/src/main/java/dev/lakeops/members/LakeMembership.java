package dev.lakeops.members;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.JdbcMemberTable;
import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.OwnerClaim;
import dev.lakeops.ledger.ProcessIdentity;
import dev.lakeops.lock.TableLocks;
import dev.lakeops.telemetry.store.StoreKind;
import dev.lakeops.telemetry.store.StoreLocation;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One {@code serve} process's membership of the group of processes sharing a store: it registers,
 * renews its heartbeat on its own thread, and, when asked by the scheduling thread, divides the
 * lake's tables among the live members by rendezvous hashing, takes the tables that fall to it
 * (free ones, or a dead member's), hands over the ones that fall to a newcomer once they are idle,
 * and reports each member it finds dead exactly once (to abandon its runs).
 */
public final class LakeMembership implements AutoCloseable {
  /** The default member lease: a killed member's tables move within this. */
  public static final Duration LEASE_DEFAULT = Duration.ofSeconds(60);

  private final JdbcMemberTable members;
  private final String catalogName;
  private final MemberRow self;
  private final Duration lease;
  private final Clock clock;
  private final Consumer<MemberRow> deaths;
  private final Consumer<String> log;
  private final ScheduledExecutorService heartbeats;
  private volatile Instant lastHeartbeat;

  private LakeMembership(
      JdbcMemberTable members,
      MemberRow self,
      Clock clock,
      Consumer<MemberRow> deaths,
      Consumer<String> log) {
    this.members = requireNonNull(members, "members is null");
    this.self = requireNonNull(self, "self is null");
    this.catalogName = self.catalogName();
    this.lease = self.lease();
    this.clock = requireNonNull(clock, "clock is null");
    this.deaths = requireNonNull(deaths, "deaths is null");
    this.log = requireNonNull(log, "log is null");
    this.lastHeartbeat = self.heartbeatAt();
    this.heartbeats =
        Executors.newSingleThreadScheduledExecutor(
            runnable -> {
              Thread thread = new Thread(runnable, "lakeops-serve-heartbeat");
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Joins the members of {@code catalogName} in {@code store}. A SQLite store stays single-process:
   * joining it while another member is alive fails with a one-line message.
   *
   * @param deaths told of each dead member this process cleans up after (on the scheduling thread)
   * @param log where membership changes are told
   */
  public static LakeMembership join(
      StoreLocation store,
      String catalogName,
      Duration lease,
      Clock clock,
      Consumer<MemberRow> deaths,
      Consumer<String> log) {
    requireNonNull(store, "store is null");
    requireNonNull(lease, "lease is null");
    if (lease.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new IllegalArgumentException(
          "member lease " + lease + " is under the 1 s minimum: give a longer --member-lease");
    }
    JdbcMemberTable members = JdbcMemberTable.open(store);
    try {
      Instant now = clock.instant();
      if (store.kind() == StoreKind.SQLITE) {
        refuseSecondProcess(members, store, catalogName, now);
      }
      long pid = ProcessHandle.current().pid();
      MemberRow self =
          new MemberRow(
              pid
                  + "@"
                  + TableLocks.host()
                  + "/"
                  + now.toEpochMilli()
                  + "-"
                  + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x10000)),
              catalogName,
              TableLocks.host(),
              pid,
              ProcessIdentity.current(),
              now,
              now,
              lease);
      members.register(self);
      LakeMembership membership = new LakeMembership(members, self, clock, deaths, log);
      membership.startHeartbeats();
      return membership;
    } catch (RuntimeException e) {
      members.close();
      throw e;
    }
  }

  private static void refuseSecondProcess(
      JdbcMemberTable members, StoreLocation store, String catalogName, Instant now) {
    Optional<MemberRow> other =
        members.members(catalogName).stream().filter(member -> member.isAliveAt(now)).findFirst();
    if (other.isPresent()) {
      throw new IllegalStateException(
          "another serve (pid "
              + other.get().pid()
              + " on "
              + other.get().host()
              + ") already maintains catalog "
              + catalogName
              + " with store "
              + store.describe()
              + ": a SQLite store stays single-process; to run several serve processes,"
              + " point them all at one PostgreSQL store (--store jdbc:postgresql://...)");
    }
  }

  public String memberId() {
    return self.memberId();
  }

  public Duration lease() {
    return lease;
  }

  /**
   * How often the tables are divided again and dead members looked for: {@link
   * MemberRow#checkInterval}, a twelfth of the lease.
   */
  public Duration refreshInterval() {
    return MemberRow.checkInterval(lease);
  }

  /** The heartbeat is renewed every two check intervals. */
  private void startHeartbeats() {
    long period = Math.max(refreshInterval().multipliedBy(2).toMillis(), 100);
    heartbeats.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.MILLISECONDS);
  }

  private void beat() {
    Instant now = clock.instant();
    try {
      if (!members.heartbeat(self.memberId(), now)) {
        log.accept(
            "member "
                + self.memberId()
                + " was taken for dead (no heartbeat within "
                + lease.toSeconds()
                + " s): joining again; its tables went to the others");
        members.register(
            new MemberRow(
                self.memberId(),
                catalogName,
                self.host(),
                self.pid(),
                self.process(),
                self.startedAt(),
                now,
                lease));
      }
      lastHeartbeat = now;
    } catch (RuntimeException e) {
      log.accept("cannot renew membership: " + e.getMessage() + "; trying again");
    }
  }

  /**
   * Looks at the store: cleans up after members found dead, divides {@code tables} among the live
   * members, takes this member's share and hands over what a newcomer should have (except {@code
   * busy} tables, kept until their work ends). Called by the scheduling thread.
   */
  public Ownership refresh(Collection<String> tables, Set<String> busy) {
    Instant now = clock.instant();
    if (!lastHeartbeat.plus(lease).isAfter(now)) {
      // this member could not renew in time: the others may have its tables now
      return Ownership.none(self.memberId(), now);
    }
    List<MemberRow> live = new ArrayList<>();
    for (MemberRow member : members.members(catalogName)) {
      if (member.memberId().equals(self.memberId()) || member.isAliveAt(now)) {
        live.add(member);
      } else if (members.remove(member)) {
        log.accept(
            "member "
                + member.memberId()
                + " (pid "
                + member.pid()
                + " on "
                + member.host()
                + ") is dead: no heartbeat since "
                + member.heartbeatAt()
                + "; taking over its tables");
        deaths.accept(member);
      }
    }
    if (live.stream().noneMatch(member -> member.memberId().equals(self.memberId()))) {
      live.add(self);
    }
    Set<String> liveIds = new HashSet<>();
    live.forEach(member -> liveIds.add(member.memberId()));
    Map<String, String> owners = members.owners(catalogName);
    List<OwnerClaim> claims = new ArrayList<>();
    List<String> handOver = new ArrayList<>();
    for (String table : tables) {
      String chosen = RendezvousHashing.ownerOf(table, liveIds).orElseThrow();
      Optional<String> current = Optional.ofNullable(owners.get(table));
      boolean mine = current.map(self.memberId()::equals).orElse(false);
      if (chosen.equals(self.memberId())) {
        if (current.isEmpty()) {
          claims.add(new OwnerClaim(table, Optional.empty()));
        } else if (!mine && !liveIds.contains(current.get())) {
          claims.add(new OwnerClaim(table, current));
        }
      } else if (mine && !busy.contains(table)) {
        handOver.add(table);
      }
    }
    members.release(catalogName, self.memberId(), handOver);
    members.claim(catalogName, self.memberId(), claims, now);
    Map<String, String> after =
        claims.isEmpty() && handOver.isEmpty() ? owners : members.owners(catalogName);
    Set<String> owned = new HashSet<>();
    after.forEach(
        (table, member) -> {
          if (member.equals(self.memberId())) {
            owned.add(table);
          }
        });
    return new Ownership(self.memberId(), live, after, owned, now);
  }

  /** Leaves the group: stops the heartbeat and gives up every table (others take them at once). */
  @Override
  public void close() {
    heartbeats.shutdownNow();
    try {
      members.leave(self.memberId());
    } catch (RuntimeException e) {
      log.accept("cannot leave the members: " + e.getMessage());
    } finally {
      members.close();
    }
  }
}
