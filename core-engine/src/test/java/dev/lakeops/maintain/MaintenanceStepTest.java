package dev.lakeops.maintain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.operation.MaintenanceOperation;
import java.util.List;
import org.junit.jupiter.api.Test;

class MaintenanceStepTest {
  @Test
  void stepsAreShortNamesOfTheirOperationsInRunOrder() {
    assertThat(MaintenanceStep.values())
        .extracting(MaintenanceStep::displayName)
        .containsExactly("expire", "orphans", "compact", "manifests");
    assertThat(MaintenanceStep.values())
        .extracting(MaintenanceStep::operation)
        .containsExactly(
            MaintenanceOperation.EXPIRE_SNAPSHOTS,
            MaintenanceOperation.REMOVE_ORPHAN_FILES,
            MaintenanceOperation.COMPACT,
            MaintenanceOperation.REWRITE_MANIFESTS);
  }

  @Test
  void parsesTheNamesUsersGive() {
    assertThat(MaintenanceStep.parseAll(List.of("expire", " Orphans ", "")))
        .containsExactlyInAnyOrder(MaintenanceStep.EXPIRE, MaintenanceStep.ORPHANS);
    assertThatThrownBy(() -> MaintenanceStep.parse("expire-snapshots"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Unknown maintenance step 'expire-snapshots': use one of expire, orphans, compact,"
                + " manifests");
  }
}
