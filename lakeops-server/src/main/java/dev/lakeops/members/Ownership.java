package dev.lakeops.members;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.MemberRow;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one member learned at its last look at the store: the live members, who owns which table,
 * and the tables it owns itself (the only ones it evaluates and maintains).
 *
 * @param memberId this member
 * @param liveMembers the members alive at {@code at}, oldest first
 * @param owners table name to the member that owns it
 * @param owned the tables this member owns
 * @param at when it looked
 */
public record Ownership(
    String memberId,
    List<MemberRow> liveMembers,
    Map<String, String> owners,
    Set<String> owned,
    Instant at) {
  public Ownership {
    requireNonNull(memberId, "memberId is null");
    liveMembers = List.copyOf(requireNonNull(liveMembers, "liveMembers is null"));
    owners = Map.copyOf(requireNonNull(owners, "owners is null"));
    owned = Set.copyOf(requireNonNull(owned, "owned is null"));
    requireNonNull(at, "at is null");
  }

  /** Before the first look: nothing owned. */
  public static Ownership none(String memberId, Instant at) {
    return new Ownership(memberId, List.of(), Map.of(), Set.of(), at);
  }

  public boolean owns(String table) {
    return owned.contains(table);
  }
}
