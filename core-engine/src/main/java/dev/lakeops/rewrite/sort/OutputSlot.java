package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import dev.lakeops.rewrite.arrow.ArrowSchemas;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.iceberg.Schema;

/**
 * One output batch of a sorted group's rows: the sorted columns the rows are gathered into, the
 * group's constant columns filled in beside them for the writer, and the gather that fills it. The
 * rows are gathered on the merging thread; once full, the slot belongs to the writer until it is
 * written and cleared.
 */
final class OutputSlot implements AutoCloseable {
  private final VectorSchemaRoot batch;
  private final ConstantColumnFill constantFill;
  private final RowGather gather;

  OutputSlot(Schema writeSchema, ConstantColumns constants, BufferAllocator allocator, int rows) {
    requireNonNull(writeSchema, "writeSchema is null");
    requireNonNull(constants, "constants is null");
    requireNonNull(allocator, "allocator is null");
    this.batch =
        VectorSchemaRoot.create(
            ArrowSchemas.toArrow(constants.withoutConstants(writeSchema)), allocator);
    try {
      this.constantFill = new ConstantColumnFill(writeSchema, constants, batch, allocator);
    } catch (RuntimeException e) {
      batch.close();
      throw e;
    }
    this.gather = new RowGather(batch, rows);
  }

  RowGather gather() {
    return gather;
  }

  /** The sorted columns, every noted row copied in. */
  VectorSchemaRoot sortedBatch() {
    return gather.batch();
  }

  /** The sorted batch's rows with every column of the write schema. */
  VectorSchemaRoot writeBatch() {
    return constantFill.writeBatch();
  }

  /** Empties the slot for the next rows, keeping its buffers. */
  void clear() {
    gather.clear();
  }

  @Override
  public void close() {
    try (VectorSchemaRoot releasing = batch) {
      constantFill.close();
    }
  }
}
