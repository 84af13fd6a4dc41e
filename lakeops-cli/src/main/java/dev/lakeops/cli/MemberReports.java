package dev.lakeops.cli;

import dev.lakeops.control.TableStatus;
import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.SuspensionRow;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The serve members and the failing operations in {@code status}'s output. */
final class MemberReports {
  private MemberReports() {}

  /** One line per member: alive or dead, its tables and their health. */
  static String human(List<TableStatus> statuses, List<MemberRow> members, Instant now) {
    long live = members.stream().filter(member -> member.isAliveAt(now)).count();
    StringBuilder text =
        new StringBuilder("members: ")
            .append(live)
            .append(" live of ")
            .append(members.size())
            .append('\n');
    for (MemberRow member : members) {
      List<TableStatus> owned = owned(statuses, member);
      text.append("  ")
          .append(member.memberId())
          .append(": ")
          .append(
              member.isAliveAt(now)
                  ? "alive"
                  : "dead (no heartbeat for " + ageSeconds(member, now) + " s)")
          .append(", pid ")
          .append(member.pid())
          .append(" on ")
          .append(member.host())
          .append(", since ")
          .append(member.startedAt().truncatedTo(ChronoUnit.SECONDS))
          .append(", heartbeat ")
          .append(ageSeconds(member, now))
          .append(" s ago; ")
          .append(owned.size())
          .append(" table(s)")
          .append(health(owned).map(health -> ", " + health).orElse(""))
          .append('\n');
    }
    return text.toString();
  }

  /** The line of an operation failing in a row on {@code table}. */
  static String failing(SuspensionRow row, String table) {
    if (row.suspended()) {
      return "suspended: "
          + row.operation()
          + " after "
          + row.failures()
          + " failures in a row, since "
          + row.suspendedAt().orElseThrow().truncatedTo(ChronoUnit.SECONDS)
          + " (last: "
          + row.lastError()
          + "); resumes when the table changes, or: lakeops resume "
          + table;
    }
    return "failing: "
        + row.operation()
        + " failed "
        + row.failures()
        + " time(s) in a row (last: "
        + row.lastError()
        + ")";
  }

  static List<Map<String, Object>> json(
      List<TableStatus> statuses, List<MemberRow> members, Instant now) {
    List<Map<String, Object>> documents = new ArrayList<>();
    for (MemberRow member : members) {
      List<TableStatus> owned = owned(statuses, member);
      Map<String, Object> document = new LinkedHashMap<>();
      document.put("member_id", member.memberId());
      document.put("alive", member.isAliveAt(now));
      document.put("host", member.host());
      document.put("pid", member.pid());
      document.put("started_at", member.startedAt().toString());
      document.put("heartbeat_at", member.heartbeatAt().toString());
      document.put("tables", owned.stream().map(TableStatus::table).toList());
      document.put(
          "mean_health_score",
          owned.stream()
              .filter(status -> status.score().isPresent())
              .mapToInt(status -> status.score().get().score())
              .average()
              .stream()
              .mapToObj(mean -> (Object) Math.round(mean))
              .findFirst()
              .orElse(null));
      documents.add(document);
    }
    return documents;
  }

  static Map<String, Object> json(SuspensionRow row) {
    Map<String, Object> document = new LinkedHashMap<>();
    document.put("operation", row.operation());
    document.put("failures_in_row", row.failures());
    document.put("last_error", row.lastError());
    document.put("suspended", row.suspended());
    document.put("suspended_at", row.suspendedAt().map(Instant::toString).orElse(null));
    return document;
  }

  private static List<TableStatus> owned(List<TableStatus> statuses, MemberRow member) {
    return statuses.stream()
        .filter(status -> status.owner().map(member.memberId()::equals).orElse(false))
        .toList();
  }

  private static Optional<String> health(List<TableStatus> owned) {
    List<TableStatus> scored = owned.stream().filter(status -> status.score().isPresent()).toList();
    if (scored.isEmpty()) {
      return Optional.empty();
    }
    TableStatus worst =
        scored.stream()
            .min(Comparator.comparingInt(status -> status.score().get().score()))
            .orElseThrow();
    long mean =
        Math.round(
            scored.stream().mapToInt(status -> status.score().get().score()).average().orElse(0));
    return Optional.of(
        "health mean " + mean + ", worst " + worst.table() + " " + worst.score().get().score());
  }

  private static long ageSeconds(MemberRow member, Instant now) {
    return Math.max(0, Duration.between(member.heartbeatAt(), now).toSeconds());
  }
}
