package dev.lakeops.control;

import static java.util.Objects.requireNonNull;

import dev.lakeops.members.LakeMembership;
import dev.lakeops.members.Ownership;
import java.time.Instant;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * The daemon's share of the lake when it shares its store with other daemons: joins them (with a
 * store, and not in a dry run), looks at the members again every quarter of the member lease, and
 * says which tables this daemon owns. Without a membership it owns every table. Owned by the
 * daemon's scheduling thread.
 */
final class DaemonMembership implements AutoCloseable {
  private final Optional<LakeMembership> membership;
  private final DaemonLog log;
  private Ownership ownership;
  private Instant nextRefresh = Instant.MIN;

  private DaemonMembership(Optional<LakeMembership> membership, DaemonLog log, Instant now) {
    this.membership = requireNonNull(membership, "membership is null");
    this.log = requireNonNull(log, "log is null");
    this.ownership = Ownership.none(membership.map(LakeMembership::memberId).orElse(""), now);
  }

  /**
   * Joins the daemons sharing {@code settings}' store. A SQLite store that another live daemon uses
   * is refused.
   */
  static DaemonMembership join(ServeSettings settings, DaemonLog log) {
    Instant now = settings.clock().instant();
    if (settings.dryRun() || settings.ledger().storeLocation().isEmpty()) {
      return new DaemonMembership(Optional.empty(), log, now);
    }
    LakeMembership joined =
        LakeMembership.join(
            settings.ledger().storeLocation().get(),
            settings.catalogName(),
            settings.memberLease(),
            settings.clock(),
            new DeadMemberRuns(settings, log),
            log::note);
    log.note(
        "joined as member "
            + joined.memberId()
            + " (member lease "
            + settings.memberLease().toSeconds()
            + " s)");
    return new DaemonMembership(Optional.of(joined), log, now);
  }

  /** Whether this daemon maintains {@code table} now: always, unless it shares the store. */
  boolean owns(TableIdentifier table) {
    return membership.isEmpty() || ownership.owns(table.toString());
  }

  /** Looks at the members again at the next {@link #refresh} (a table was found). */
  void refreshSoon() {
    nextRefresh = Instant.MIN;
  }

  /**
   * Divides {@code tables} among the live members again when it is time; {@code busy} tables (with
   * work running here) are kept until it ends.
   *
   * @return the ownership before, when it looked again
   */
  Optional<Ownership> refresh(Instant now, Collection<String> tables, Set<String> busy) {
    if (membership.isEmpty() || now.isBefore(nextRefresh)) {
      return Optional.empty();
    }
    nextRefresh = now.plus(membership.get().refreshInterval());
    Ownership previous = ownership;
    try {
      ownership = membership.get().refresh(tables, busy);
    } catch (RuntimeException e) {
      log.note("cannot read the members from the store: " + DaemonLog.oneLine(e));
      return Optional.empty();
    }
    if (!ownership.owned().equals(previous.owned())
        || ownership.liveMembers().size() != previous.liveMembers().size()) {
      log.note(
          "owns "
              + ownership.owned().size()
              + " of "
              + tables.size()
              + " table(s); "
              + ownership.liveMembers().size()
              + " live member(s)");
    }
    return Optional.of(previous);
  }

  Ownership ownership() {
    return ownership;
  }

  /** Leaves the members: the others take this daemon's tables at their next look. */
  @Override
  public void close() {
    membership.ifPresent(LakeMembership::close);
  }
}
