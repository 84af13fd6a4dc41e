package dev.lakeops.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Pins every operation's names: the procedure names Spark and Trino register, and the command names
 * the CLI offers and the run ledger stores (rows written by earlier versions carry them).
 */
class MaintenanceOperationTest {
  @Test
  void procedureNamesArePinned() {
    assertThat(names(true))
        .containsExactly(
            entry(MaintenanceOperation.COMPACT, "compact"),
            entry(MaintenanceOperation.EXPIRE_SNAPSHOTS, "expire_snapshots"),
            entry(MaintenanceOperation.REMOVE_ORPHAN_FILES, "remove_orphan_files"),
            entry(MaintenanceOperation.REWRITE_MANIFESTS, "rewrite_manifests"),
            entry(MaintenanceOperation.MAINTAIN, "maintain"),
            entry(MaintenanceOperation.HEALTH, "health"),
            entry(MaintenanceOperation.REWRITE_POSITION_DELETES, "rewrite_position_deletes"),
            entry(MaintenanceOperation.REMOVE_DANGLING_DELETES, "remove_dangling_deletes"),
            entry(MaintenanceOperation.CONVERT_EQUALITY_DELETES, "convert_equality_deletes"));
  }

  @Test
  void commandAndLedgerNamesArePinned() {
    assertThat(names(false))
        .containsExactly(
            entry(MaintenanceOperation.COMPACT, "compact"),
            entry(MaintenanceOperation.EXPIRE_SNAPSHOTS, "expire-snapshots"),
            entry(MaintenanceOperation.REMOVE_ORPHAN_FILES, "remove-orphan-files"),
            entry(MaintenanceOperation.REWRITE_MANIFESTS, "rewrite-manifests"),
            entry(MaintenanceOperation.MAINTAIN, "maintain"),
            entry(MaintenanceOperation.HEALTH, "health"),
            entry(MaintenanceOperation.REWRITE_POSITION_DELETES, "rewrite-position-deletes"),
            entry(MaintenanceOperation.REMOVE_DANGLING_DELETES, "remove-dangling-deletes"),
            entry(MaintenanceOperation.CONVERT_EQUALITY_DELETES, "convert-equality-deletes"));
  }

  @Test
  void namesReadBackToTheirOperation() {
    for (MaintenanceOperation operation : MaintenanceOperation.values()) {
      assertThat(MaintenanceOperation.ofCommandName(operation.commandName())).contains(operation);
      assertThat(MaintenanceOperation.ofProcedureName(operation.procedureName()))
          .contains(operation);
    }
    assertThat(MaintenanceOperation.ofCommandName("expire_snapshots")).isEmpty();
    assertThat(MaintenanceOperation.ofCommandName("vacuum")).isEmpty();
  }

  @Test
  void everyOperationHasExactlyOneContractInTheDocumentedOrder() {
    assertThat(Operations.ALL)
        .extracting(Operation::identity)
        .containsExactly(MaintenanceOperation.values());
    for (MaintenanceOperation operation : MaintenanceOperation.values()) {
      Operation contract = Operations.of(operation);
      assertThat(contract.name()).isEqualTo(operation.procedureName());
      assertThat(contract.commandName()).isEqualTo(operation.commandName());
      assertThat(Operations.named(operation.procedureName())).contains(contract);
    }
  }

  @Test
  void onlyCompactionsRewriteFiles() {
    assertThat(
            Arrays.stream(MaintenanceOperation.values())
                .filter(MaintenanceOperation::rewritesFiles))
        .containsExactly(
            MaintenanceOperation.COMPACT, MaintenanceOperation.REWRITE_POSITION_DELETES);
  }

  private static Map<MaintenanceOperation, String> names(boolean procedure) {
    Map<MaintenanceOperation, String> names = new LinkedHashMap<>();
    for (MaintenanceOperation operation : MaintenanceOperation.values()) {
      names.put(operation, procedure ? operation.procedureName() : operation.commandName());
    }
    return names;
  }
}
