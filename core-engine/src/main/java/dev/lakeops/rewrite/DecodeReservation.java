package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.MemoryBudgetExceededException;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.unit.ByteSize;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.OutOfMemoryException;

/**
 * Heap memory a decoding rewrite needs outside Arrow, held as an untouched Arrow buffer of the
 * group's allocator for as long as the group runs: the reader's largest input row group plus {@code
 * extraBytes} (the row path's writer buffers). With it taken first, the budget's hard limit covers
 * the heap side too; a group whose input row groups alone do not fit fails up front with an error
 * that names the file size and the flag to raise.
 */
public final class DecodeReservation implements AutoCloseable {
  private final ArrowBuf buffer;

  private DecodeReservation(ArrowBuf buffer) {
    this.buffer = requireNonNull(buffer, "buffer is null");
  }

  /**
   * Reserves {@code inputRowGroupBytes} (the group's largest input row group, see {@link
   * InputRowGroupSizes}) plus {@code extraBytes}.
   */
  public static DecodeReservation take(
      BufferAllocator allocator, FileGroup group, long inputRowGroupBytes, long extraBytes) {
    long bytes = inputRowGroupBytes + extraBytes;
    try {
      return new DecodeReservation(allocator.buffer(bytes));
    } catch (OutOfMemoryException e) {
      throw new MemoryBudgetExceededException(
          "File group "
              + group.index()
              + " reads Parquet row groups of up to "
              + ByteSize.ofBytes(inputRowGroupBytes)
              + " and needs "
              + ByteSize.ofBytes(bytes)
              + " of its "
              + ByteSize.ofBytes(allocator.getLimit())
              + " memory share: raise {memory_budget}"
              + " or lower max-concurrent-file-group-rewrites",
          e);
    }
  }

  public long bytes() {
    return buffer.capacity();
  }

  @Override
  public void close() {
    buffer.close();
  }
}
