package dev.lakeops.rewrite;

import static java.util.Objects.requireNonNull;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.expressions.Expression;

/**
 * A scan task whose equality deletes were resolved to row positions: {@link #deletes()} holds only
 * its position deletes and deletion vectors, {@link #equalityDeletedPositions()} the rows its
 * equality deletes delete. Readers must apply both ({@code LiveRowReader} does).
 */
public final class EqualityResolvedTask implements FileScanTask {
  private final FileScanTask original;
  private final List<DeleteFile> positionDeletes;
  private final PositionDeleteIndex equalityDeletedPositions;

  public EqualityResolvedTask(FileScanTask original, PositionDeleteIndex equalityDeletedPositions) {
    this.original = requireNonNull(original, "original is null");
    this.positionDeletes =
        original.deletes().stream()
            .filter(delete -> delete.content() != FileContent.EQUALITY_DELETES)
            .toList();
    this.equalityDeletedPositions =
        requireNonNull(equalityDeletedPositions, "equalityDeletedPositions is null");
  }

  public PositionDeleteIndex equalityDeletedPositions() {
    return equalityDeletedPositions;
  }

  public FileScanTask original() {
    return original;
  }

  @Override
  public DataFile file() {
    return original.file();
  }

  @Override
  public List<DeleteFile> deletes() {
    return positionDeletes;
  }

  @Override
  public Schema schema() {
    return original.schema();
  }

  @Override
  public PartitionSpec spec() {
    return original.spec();
  }

  @Override
  public StructLike partition() {
    return original.partition();
  }

  @Override
  public long start() {
    return original.start();
  }

  @Override
  public long length() {
    return original.length();
  }

  @Override
  public Expression residual() {
    return original.residual();
  }

  @Override
  public Iterable<FileScanTask> split(long targetSplitSize) {
    return List.of(this);
  }
}
