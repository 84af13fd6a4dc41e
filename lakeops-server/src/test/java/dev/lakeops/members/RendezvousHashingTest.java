package dev.lakeops.members;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RendezvousHashingTest {
  private static final List<String> THREE = List.of("a@host-1/1", "b@host-2/2", "c@host-3/3");

  @Test
  void spreadsTablesEvenly() {
    Map<String, Integer> counts = new HashMap<>();
    for (int table = 0; table < 3_000; table++) {
      counts.merge(RendezvousHashing.ownerOf("db.t" + table, THREE).orElseThrow(), 1, Integer::sum);
    }
    assertThat(counts).hasSize(3);
    assertThat(counts.values()).allSatisfy(count -> assertThat(count).isBetween(900, 1_100));
  }

  @Test
  void aLeavingMemberMovesOnlyItsOwnTables() {
    List<String> two = List.of("a@host-1/1", "c@host-3/3");
    for (int table = 0; table < 1_000; table++) {
      String before = RendezvousHashing.ownerOf("db.t" + table, THREE).orElseThrow();
      String after = RendezvousHashing.ownerOf("db.t" + table, two).orElseThrow();
      if (!before.equals("b@host-2/2")) {
        assertThat(after).as("db.t" + table).isEqualTo(before);
      }
    }
  }

  @Test
  void noMembersNoOwnerAndTheOrderOfMembersDoesNotMatter() {
    assertThat(RendezvousHashing.ownerOf("db.t", List.of())).isEmpty();
    assertThat(RendezvousHashing.ownerOf("db.t", THREE))
        .isEqualTo(
            RendezvousHashing.ownerOf("db.t", List.of(THREE.get(2), THREE.get(1), THREE.get(0))));
  }
}
