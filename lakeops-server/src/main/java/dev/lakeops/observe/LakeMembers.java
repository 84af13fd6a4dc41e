package dev.lakeops.observe;

import static java.util.Objects.requireNonNull;

import dev.lakeops.ledger.MemberRow;
import dev.lakeops.ledger.SuspensionRow;
import java.util.List;
import java.util.Map;

/**
 * The serve processes sharing the store as this one last saw them, and the operations suspended on
 * the lake's tables.
 *
 * @param self this process's member id; empty when it shares no store
 * @param live the live members, oldest first
 * @param owners table name to the member that owns it
 * @param suspended the operations suspended after failing in a row
 */
public record LakeMembers(
    String self, List<MemberRow> live, Map<String, String> owners, List<SuspensionRow> suspended) {
  /** A daemon that has not reported its members yet. */
  public static final LakeMembers NONE = new LakeMembers("", List.of(), Map.of(), List.of());

  public LakeMembers {
    requireNonNull(self, "self is null");
    live = List.copyOf(requireNonNull(live, "live is null"));
    owners = Map.copyOf(requireNonNull(owners, "owners is null"));
    suspended = List.copyOf(requireNonNull(suspended, "suspended is null"));
  }
}
