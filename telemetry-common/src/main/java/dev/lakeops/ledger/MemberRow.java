package dev.lakeops.ledger;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;

/**
 * One {@code lakeops serve} process sharing a store with others, as its row in {@code
 * lakeops_member} holds it.
 *
 * @param memberId unique per process start, e.g. {@code 4242@host-1/1733370000000}
 * @param catalogName the catalog it maintains
 * @param host the machine it runs on
 * @param pid its process id on {@code host}
 * @param process its {@code pid@machine}, as the run ledger names the process of a run
 * @param startedAt when it joined
 * @param heartbeatAt when it last renewed its membership
 * @param lease the longest a killed member keeps its tables: it counts as dead once its last
 *     heartbeat is older than the lease less one {@link #checkInterval check interval}, and the
 *     others look for dead members that often
 */
public record MemberRow(
    String memberId,
    String catalogName,
    String host,
    long pid,
    String process,
    Instant startedAt,
    Instant heartbeatAt,
    Duration lease) {
  public MemberRow {
    requireNonNull(memberId, "memberId is null");
    requireNonNull(catalogName, "catalogName is null");
    requireNonNull(host, "host is null");
    requireNonNull(process, "process is null");
    requireNonNull(startedAt, "startedAt is null");
    requireNonNull(heartbeatAt, "heartbeatAt is null");
    requireNonNull(lease, "lease is null");
  }

  /**
   * How often members renew their heartbeat (twice this) and look for dead members and divide the
   * tables again (this): a twelfth of {@code lease}, so that a dead member's tables move within its
   * lease while a live one misses five heartbeats before it counts as dead.
   */
  public static Duration checkInterval(Duration lease) {
    return lease.dividedBy(12);
  }

  /**
   * Whether the member counts as alive at {@code now}: its last heartbeat is younger than its lease
   * less one check interval, and it is not a process of this machine that is known to be gone.
   */
  public boolean isAliveAt(Instant now) {
    return heartbeatAt.plus(lease.minus(checkInterval(lease))).isAfter(now)
        && !ProcessIdentity.isGone(process);
  }
}
