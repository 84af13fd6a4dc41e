package dev.lakeops.members;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Optional;

/**
 * Highest-random-weight (rendezvous) hashing: each table goes to the member whose hash of (member,
 * table) is highest. Tables spread evenly, and when a member joins or leaves only the tables it
 * gains or had move; every member computes the same answer from the same member list.
 */
final class RendezvousHashing {
  private RendezvousHashing() {}

  /** The member of {@code memberIds} that {@code table} belongs to; empty without members. */
  static Optional<String> ownerOf(String table, Collection<String> memberIds) {
    String best = null;
    long bestWeight = 0;
    for (String member : memberIds) {
      long weight = weight(member, table);
      if (best == null
          || Long.compareUnsigned(weight, bestWeight) > 0
          || (weight == bestWeight && member.compareTo(best) < 0)) {
        best = member;
        bestWeight = weight;
      }
    }
    return Optional.ofNullable(best);
  }

  /** FNV-1a over the member, a separator and the table, finished with a 64-bit mixer. */
  static long weight(String member, String table) {
    long hash = 0xcbf29ce484222325L;
    for (byte value : (member + '\u0000' + table).getBytes(StandardCharsets.UTF_8)) {
      hash ^= value & 0xff;
      hash *= 0x100000001b3L;
    }
    hash ^= hash >>> 33;
    hash *= 0xff51afd7ed558ccdL;
    hash ^= hash >>> 33;
    hash *= 0xc4ceb9fe1a85ec53L;
    hash ^= hash >>> 33;
    return hash;
  }
}
