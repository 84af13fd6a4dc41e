package dev.lakeops.telemetry.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TelemetryEventTest {
  @Test
  void copiesColumnsSoLaterChangesDoNotLeakIn() {
    List<ColumnReference> columns = new ArrayList<>();
    columns.add(ColumnReference.filter("user_id", PredicateKind.EQUALITY));
    TelemetryEvent event =
        new TelemetryEvent(
            "spark", TelemetryEvents.ORDERS, "q1", Instant.EPOCH, columns, ScanVolume.ofBytes(10));
    columns.add(ColumnReference.of("amount", Clause.PROJECTION));

    assertThat(event.columns())
        .containsExactly(ColumnReference.filter("user_id", PredicateKind.EQUALITY));
  }

  @Test
  void rejectsBlankEngine() {
    assertThatThrownBy(
            () ->
                new TelemetryEvent(
                    " ",
                    TelemetryEvents.ORDERS,
                    "q1",
                    Instant.EPOCH,
                    List.of(),
                    ScanVolume.unknown()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("engine is blank");
  }

  @Test
  void rejectsNegativeScanVolume() {
    assertThatThrownBy(() -> ScanVolume.ofBytes(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("bytes scanned must not be negative: -1");
  }

  @Test
  void namesTableWithDots() {
    assertThat(TableName.of("lake", "sales.eu", "orders")).hasToString("lake.sales.eu.orders");
  }
}
