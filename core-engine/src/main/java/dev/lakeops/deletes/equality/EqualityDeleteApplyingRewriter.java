package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.EqualityResolvedTask;
import dev.lakeops.rewrite.GroupRewriteStage;
import dev.lakeops.rewrite.RewrittenGroup;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Table;

/**
 * Keeps equality-delete application inside the group's memory share. A group whose equality keys
 * fit a quarter of its share is rewritten by the wrapped stage as is (Iceberg's delete filter holds
 * the keys in heap), with the estimated key-set size reserved meanwhile. A larger group first has
 * its equality deletes resolved to row positions by {@link EqualityDeleteResolver} (a spilling hash
 * anti-join); the wrapped stage then reads {@link EqualityResolvedTask}s. The reservation and the
 * resolved positions live in an {@code equality-deletes} child of the group's allocator, and the
 * wrapped stage gets the same group allocator, so both together stay within the share. The result
 * always names the original group, so the committer removes the equality delete files as usual.
 */
public final class EqualityDeleteApplyingRewriter implements GroupRewriteStage {
  private final GroupRewriteStage delegate;
  private final Table table;
  private final Path spillDirectory;
  private final AtomicLong spilledBytes = new AtomicLong();
  private final AtomicInteger spillFiles = new AtomicInteger();
  private final AtomicInteger resolvedGroups = new AtomicInteger();

  public EqualityDeleteApplyingRewriter(
      GroupRewriteStage delegate, Table table, Path spillDirectory) {
    this.delegate = requireNonNull(delegate, "delegate is null");
    this.table = requireNonNull(table, "table is null");
    this.spillDirectory = requireNonNull(spillDirectory, "spillDirectory is null");
  }

  public GroupRewriteStage delegate() {
    return delegate;
  }

  @Override
  public RewrittenGroup rewrite(FileGroup group, BufferAllocator groupAllocator) {
    if (!EqualityDeleteResolver.hasEqualityDeletes(group.tasks())) {
      return delegate.rewrite(group, groupAllocator);
    }
    long keyBytes = groupAllocator.getLimit() / 4;
    try (BufferAllocator allocator =
        GroupRewriteStage.stageAllocator(groupAllocator, "equality-deletes")) {
      EqualityDeleteResolver resolver =
          new EqualityDeleteResolver(table, allocator, keyBytes, spillDirectory);
      long inMemoryBytes = resolver.inMemoryFilterBytes(group.tasks());
      if (inMemoryBytes <= keyBytes) {
        ArrowBuf reservation = reserve(allocator, inMemoryBytes);
        if (reservation != null) {
          try (reservation) {
            return delegate.rewrite(group, groupAllocator);
          }
        }
      }
      try (ResolvedEqualityDeletes resolved = resolver.resolve(group.tasks())) {
        spilledBytes.addAndGet(resolved.spilledBytes());
        spillFiles.addAndGet(resolved.spillFiles());
        resolvedGroups.incrementAndGet();
        List<FileScanTask> tasks =
            group.tasks().stream()
                .map(
                    task ->
                        (FileScanTask)
                            new EqualityResolvedTask(
                                task, resolved.positions(task.file().location())))
                .toList();
        RewrittenGroup rewritten =
            delegate.rewrite(
                new FileGroup(
                    group.index(),
                    group.specId(),
                    group.partition(),
                    group.partitionPath(),
                    tasks,
                    group.columnSummaries()),
                groupAllocator);
        return new RewrittenGroup(
            group,
            rewritten.addedFiles(),
            rewritten.copiedBytes(),
            rewritten.decodedBytes(),
            rewritten.fallbackReason(),
            rewritten.rowAccount());
      }
    }
  }

  /** The reserved buffer, or null when the budget has no room for it now. */
  private static ArrowBuf reserve(BufferAllocator allocator, long bytes) {
    try {
      return allocator.buffer(Math.max(1, bytes));
    } catch (OutOfMemoryException e) {
      return null;
    }
  }

  /** Bytes the equality-delete joins wrote to spill files. */
  public long spilledBytes() {
    return spilledBytes.get();
  }

  public int spillFiles() {
    return spillFiles.get();
  }

  /** Groups whose equality deletes were resolved to positions before the rewrite. */
  public int resolvedGroups() {
    return resolvedGroups.get();
  }
}
