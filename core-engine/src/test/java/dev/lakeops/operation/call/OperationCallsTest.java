package dev.lakeops.operation.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.Strategy;
import dev.lakeops.maintain.MaintenanceStep;
import dev.lakeops.maintain.orphan.PrefixMismatchMode;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.HostSettings;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.unit.ByteSize;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Binding: defaults from the contract, each value checked once, errors in the caller's words. */
class OperationCallsTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  @Test
  void compactWithoutArgumentsTakesTheContractsDefaults() {
    CompactionRequest request = CompactCall.bind(OperationArguments.on(Host.CLI)).request();

    assertThat(request.strategy()).isEqualTo(Strategy.BINPACK);
    assertThat(request.memoryBudget()).isEqualTo(ContractDefaults.MEMORY_BUDGET);
    assertThat(request.options()).isEmpty();
    assertThat(request.dryRun()).isFalse();
    assertThat(request).isEqualTo(CompactionRequest.binpack());
  }

  @Test
  void compactTakesEachArgumentAsTheHostParsedIt() {
    OperationArguments arguments =
        OperationArguments.on(Host.SPARK)
            .with("strategy", "zorder")
            .with("zorder_columns", List.of("a", " b "))
            .with("where", "day > 3")
            .with("options", Map.of("min-input-files", "2"))
            .with(Operations.MEMORY_BUDGET, ByteSize.ofMegabytes(512))
            .with(Operations.TARGET_FILE_SIZE, "64MB")
            .with(Operations.VERIFY, "off")
            .with(Operations.DRY_RUN, true)
            .with("spill_directory", "/tmp/spill")
            .with(HostSettings.TELEMETRY_STORE, "sqlite:/tmp/t.db");

    CompactionRequest request = CompactCall.bind(arguments).request();

    assertThat(request.strategy()).isEqualTo(Strategy.ZORDER);
    assertThat(request.zorderColumns()).containsExactly("a", "b");
    assertThat(request.where()).contains("day > 3");
    assertThat(request.options())
        .containsEntry("min-input-files", "2")
        .containsEntry(RewriteOptions.TARGET_FILE_SIZE_BYTES, String.valueOf(64L << 20));
    assertThat(request.memoryBudget()).isEqualTo(ByteSize.ofMegabytes(512));
    assertThat(request.verify()).contains("off");
    assertThat(request.dryRun()).isTrue();
    assertThat(request.spillDirectory()).isEqualTo(Path.of("/tmp/spill"));
    assertThat(request.telemetryStore()).contains("sqlite:/tmp/t.db");
  }

  @Test
  void theTargetFileSizeWinsOverTheSameOption() {
    OperationArguments arguments =
        OperationArguments.on(Host.CLI)
            .with("options", Map.of(RewriteOptions.TARGET_FILE_SIZE_BYTES, "1"))
            .with(Operations.TARGET_FILE_SIZE, "1MB")
            .with(HostSettings.MIN_AGE, "15m");

    assertThat(CompactCall.bind(arguments).request().options())
        .containsEntry(RewriteOptions.TARGET_FILE_SIZE_BYTES, String.valueOf(1L << 20))
        .containsEntry(RewriteOptions.MIN_AGE, "15m");
  }

  @Test
  void aBadValueNamesTheArgumentAsEachHostSpellsIt() {
    assertThatThrownBy(
            () ->
                CompactCall.bind(
                    OperationArguments.on(Host.SPARK).with(Operations.MEMORY_BUDGET, "lots")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Invalid argument memory_budget => 'lots': Invalid size 'lots'");
    assertThatThrownBy(
            () ->
                CompactCall.bind(
                    OperationArguments.on(Host.CLI).with(Operations.MEMORY_BUDGET, "lots")))
        .hasMessageStartingWith("Invalid --memory-budget 'lots': Invalid size 'lots'");
    assertThatThrownBy(
            () ->
                CompactCall.bind(
                    OperationArguments.on(Host.FLINK).with(Operations.MEMORY_BUDGET, "lots")))
        .hasMessageStartingWith("Invalid memoryBudget 'lots': Invalid size 'lots'");
    assertThatThrownBy(
            () ->
                CompactCall.bind(
                    OperationArguments.on(Host.SPARK)
                        .withAlias(Operations.MEMORY_BUDGET, "memory", "lots")))
        .hasMessageStartingWith("Invalid argument memory => 'lots': Invalid size 'lots'");
    assertThatThrownBy(
            () -> CompactCall.bind(OperationArguments.on(Host.TRINO).with("strategy", "fastest")))
        .hasMessage(
            "Invalid argument strategy => 'fastest': Unknown strategy 'fastest': use one of"
                + " binpack, sort, zorder, auto");
  }

  @Test
  void anArgumentTheOperationDoesNotTakeIsRefused() {
    assertThatThrownBy(
            () ->
                ExpireSnapshotsCall.bind(
                    OperationArguments.on(Host.CLI).with(Operations.MEMORY_BUDGET, "1GB")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expire_snapshots takes no argument --memory-budget");
  }

  @Test
  void expireSnapshotsChecksItsNumbersAndReadsCutoffsInTheCallersZone() {
    OperationArguments arguments =
        OperationArguments.on(Host.SPARK)
            .at(NOW, ZoneId.of("Europe/Amsterdam"))
            .with(Operations.OLDER_THAN, "2026-02-01 00:00:00")
            .with("retain_last", 3)
            .with(Operations.MAX_CONCURRENT_DELETES, 4L)
            .with("snapshot_ids", List.of(7L, 9L));

    ExpireSnapshotsCall call = ExpireSnapshotsCall.bind(arguments);

    assertThat(call.options().olderThan()).contains(Instant.parse("2026-01-31T23:00:00Z"));
    assertThat(call.options().retainLast()).isEqualTo(OptionalInt.of(3));
    assertThat(call.options().parallelism()).isEqualTo(4);
    assertThat(call.options().snapshotIds()).containsExactly(7L, 9L);
    assertThatThrownBy(
            () ->
                ExpireSnapshotsCall.bind(OperationArguments.on(Host.SPARK).with("retain_last", 0)))
        .hasMessage(
            "Invalid argument retain_last => 0: every branch keeps at least its head; use 1 or"
                + " more");
    assertThatThrownBy(
            () ->
                ExpireSnapshotsCall.bind(
                    OperationArguments.on(Host.TRINO).with("retain_last", 10_000_000_000L)))
        .hasMessage("retain_last = 10000000000 is out of range: use at most 2147483647");
    assertThatThrownBy(
            () ->
                ExpireSnapshotsCall.bind(
                    OperationArguments.on(Host.CLI).with(Operations.OLDER_THAN, "soon")))
        .hasMessage(
            "Invalid --older-than 'soon': use a duration such as 7d, 12h, 30m or a timestamp such"
                + " as 2026-01-31T00:00:00Z");
  }

  @Test
  void orphanRemovalDefaultsAndItsSafetyFloor() {
    RemoveOrphanFilesCall defaults = RemoveOrphanFilesCall.bind(OperationArguments.on(Host.SPARK));
    assertThat(defaults.options().olderThan()).isEqualTo(ContractDefaults.ORPHAN_OLDER_THAN);
    assertThat(defaults.options().prefixMismatchMode()).isEqualTo(PrefixMismatchMode.ERROR);
    assertThat(defaults.options().equalSchemes()).isEqualTo(ContractDefaults.EQUAL_SCHEMES);

    assertThatThrownBy(
            () ->
                RemoveOrphanFilesCall.bind(
                    OperationArguments.on(Host.SPARK).with(Operations.OLDER_THAN, "1h")))
        .hasMessageStartingWith("Invalid argument older_than => ")
        .hasMessageEndingWith("use a timestamp at least that long ago");
    assertThatThrownBy(
            () ->
                RemoveOrphanFilesCall.bind(
                    OperationArguments.on(Host.CLI).with(Operations.OLDER_THAN, "1h")))
        .hasMessageContaining("use an older cutoff (the command line's --force goes below it)");
    assertThat(
            RemoveOrphanFilesCall.bind(
                    OperationArguments.on(Host.CLI)
                        .at(NOW, ZoneId.of("UTC"))
                        .with(Operations.OLDER_THAN, "1h")
                        .with(HostSettings.FORCE, true))
                .options()
                .olderThan())
        .isEqualTo(Duration.ofHours(1));
    assertThatThrownBy(
            () ->
                RemoveOrphanFilesCall.bind(
                    OperationArguments.on(Host.SPARK).with("prefix_mismatch_mode", "maybe")))
        .hasMessage(
            "Invalid argument prefix_mismatch_mode => 'maybe': Invalid prefix mismatch mode"
                + " 'maybe': use one of error, ignore, delete");
  }

  @Test
  void maintainSkipsStepsAndVerifiesItsCompaction() {
    MaintainCall call =
        MaintainCall.bind(
            OperationArguments.on(Host.CLI)
                .with("skip_steps", List.of("orphans"))
                .with(Operations.VERIFY, "checksum")
                .with(Operations.DRY_RUN, true));

    assertThat(call.options().skipped()).containsExactly(MaintenanceStep.ORPHANS);
    assertThat(call.options().compaction().verify()).contains("checksum");
    assertThat(call.dryRun()).isTrue();
    assertThat(call.options().expiry().dryRun()).isTrue();
    assertThatThrownBy(
            () ->
                MaintainCall.bind(
                    OperationArguments.on(Host.SPARK).with("skip_steps", List.of("vacuum"))))
        .hasMessage(
            "Invalid argument skip_steps: Unknown maintenance step 'vacuum': use one of expire,"
                + " orphans, compact, manifests");
    assertThatThrownBy(
            () ->
                MaintainCall.bind(
                    OperationArguments.on(Host.CLI).with("skip_steps", List.of("vacuum"))))
        .hasMessageStartingWith("Invalid --skip: Unknown maintenance step 'vacuum'");
  }

  @Test
  void theOtherOperationsTakeTheirDefaults() {
    OperationArguments none = OperationArguments.on(Host.CLI);
    assertThat(RewriteManifestsCall.bind(none).options().specId()).isEmpty();
    assertThatThrownBy(
            () ->
                RewriteManifestsCall.bind(
                    OperationArguments.on(Host.SPARK).with("target_manifest_size", "big")))
        .hasMessageStartingWith(
            "Invalid argument target_manifest_size => 'big': Invalid size 'big'");
    assertThat(RewritePositionDeletesCall.bind(none).minInputFiles())
        .isEqualTo(ContractDefaults.MIN_INPUT_FILES);
    assertThatThrownBy(
            () ->
                RewritePositionDeletesCall.bind(
                    OperationArguments.on(Host.CLI).with("min_input_files", 0)))
        .hasMessage("Invalid --min-input-files 0: use 1 or more");
    assertThat(RemoveDanglingDeletesCall.bind(none).dryRun()).isFalse();
    assertThat(ConvertEqualityDeletesCall.bind(none).options().memoryBudget())
        .isEqualTo(ContractDefaults.MEMORY_BUDGET);
    for (Operation operation : Operations.ALL) {
      assertThat(OperationCalls.bind(operation, none).operation()).isEqualTo(operation);
    }
  }
}
