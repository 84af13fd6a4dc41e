package dev.lakeops.deletes.equality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.CompactionResult;
import dev.lakeops.compact.TableCompactor;
import dev.lakeops.health.TableHealthInspector;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.GroupRewriteStage;
import dev.lakeops.rewrite.RewrittenGroup;
import dev.lakeops.rewrite.arrow.ArrowGroupRewriter;
import dev.lakeops.testing.SimpleTables;
import dev.lakeops.testing.TableFiles;
import dev.lakeops.unit.ByteSize;
import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.Table;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Equality-delete application and the stage it wraps draw on one allocator per group, so a group
 * never holds more than its share of the budget. The budget is closed after each test: a buffer
 * left behind fails it.
 */
class GroupMemoryShareTest {
  private static final long SHARE = 16L << 20;

  @TempDir Path warehouse;
  @TempDir Path spill;
  private MemoryBudget budget;

  @BeforeEach
  void openBudget() {
    budget = new MemoryBudget(ByteSize.parse("64MB"));
  }

  @AfterEach
  void closeBudgetDetectingLeaks() {
    budget.close();
  }

  @Test
  void theWrappedStageGetsOnlyWhatTheEqualityDeletesLeaveOfTheShare() throws IOException {
    Table table = tableWithEqualityDeletes();
    List<Long> stageLimits = new ArrayList<>();
    GroupRewriteStage probe =
        (group, groupAllocator) -> {
          try (BufferAllocator stage = GroupRewriteStage.stageAllocator(groupAllocator, "probe")) {
            stageLimits.add(stage.getLimit());
            assertThatThrownBy(() -> stage.buffer(SHARE).close())
                .isInstanceOf(OutOfMemoryException.class)
                .hasMessageContaining("Unable to allocate buffer");
          }
          return new RewrittenGroup(group, List.of(), 0, 0);
        };
    EqualityDeleteApplyingRewriter equality =
        new EqualityDeleteApplyingRewriter(probe, table, spill);

    try (BufferAllocator groupAllocator = budget.newChild("rewrite-group-0", SHARE)) {
      equality.rewrite(onlyGroup(table), groupAllocator);
    }

    assertThat(stageLimits)
        .singleElement()
        .satisfies(limit -> assertThat(limit).isPositive().isLessThan(SHARE));
    assertThat(budget.peakBytes()).isPositive().isLessThanOrEqualTo(SHARE);
    assertThat(budget.allocatedBytes()).isZero();
  }

  @Test
  void equalityDeletesAroundTheColumnarPathStayWithinTheGroupShare() throws IOException {
    Table table = tableWithEqualityDeletes();
    assertThat(ArrowGroupRewriter.supports(table)).isTrue();
    RowFingerprint before = RowFingerprint.of(table);

    CompactionResult result =
        new TableCompactor()
            .compact(
                table,
                CompactionRequest.builder()
                    .memoryBudget(ByteSize.parse("64MB"))
                    .spillDirectory(spill)
                    .options(
                        Map.of("max-concurrent-file-group-rewrites", "4", "rewrite-all", "true"))
                    .build());

    table.refresh();
    assertThat(result.peakMemoryBytes()).isPositive().isLessThanOrEqualTo(SHARE);
    assertThat(RowFingerprint.of(table)).isEqualTo(before);
    assertThat(TableHealthInspector.inspect(table).equalityDeleteFiles()).isZero();
  }

  /** One partition, three files of 20,000 rows, 5,000 ids deleted by equality. */
  private Table tableWithEqualityDeletes() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    Table table = SimpleTables.create(catalog, "t", 2, Map.of());
    PartitionKey partition = SimpleTables.partition(table, 0);
    for (int file = 0; file < 3; file++) {
      TableFiles.append(
          table, partition, SimpleTables.rows(table.schema(), file * 20_000L, 20_000, 0));
    }
    EqualityDeleteFiles.commit(table, partition, "id", 5_000, index -> index * 3);
    return table;
  }

  private static FileGroup onlyGroup(Table table) {
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned = table.newScan().planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    FileScanTask first = tasks.get(0);
    return new FileGroup(0, first.spec().specId(), first.partition(), "part=0", tasks);
  }
}
