package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.deletes.PositionDeleteIndex;

/**
 * The row positions that equality delete files delete, per data file, with how the join ran. Holds
 * the budget reservation for the position sets until closed.
 */
public final class ResolvedEqualityDeletes implements AutoCloseable {
  private final Map<String, PositionDeleteIndex> positionsByFile;
  private final List<DeleteFile> equalityDeleteFiles;
  private final long spilledBytes;
  private final int spillFiles;
  private final MemoryReservation memory;

  ResolvedEqualityDeletes(
      Map<String, PositionDeleteIndex> positionsByFile,
      List<DeleteFile> equalityDeleteFiles,
      long spilledBytes,
      int spillFiles,
      MemoryReservation memory) {
    this.positionsByFile = Map.copyOf(requireNonNull(positionsByFile, "positionsByFile is null"));
    this.equalityDeleteFiles =
        List.copyOf(requireNonNull(equalityDeleteFiles, "equalityDeleteFiles is null"));
    this.spilledBytes = spilledBytes;
    this.spillFiles = spillFiles;
    this.memory = requireNonNull(memory, "memory is null");
  }

  /** The positions of {@code dataFileLocation} deleted by equality deletes; empty when none. */
  public PositionDeleteIndex positions(String dataFileLocation) {
    return positionsByFile.getOrDefault(dataFileLocation, PositionDeleteIndex.empty());
  }

  /** Data file locations with at least one deleted row, mapped to their positions. */
  public Map<String, PositionDeleteIndex> positionsByFile() {
    return positionsByFile;
  }

  /** The equality delete files that were resolved. */
  public List<DeleteFile> equalityDeleteFiles() {
    return equalityDeleteFiles;
  }

  public long deletedRows() {
    return positionsByFile.values().stream().mapToLong(PositionDeleteIndex::cardinality).sum();
  }

  /** Bytes written to spill files (zero when the keys fit the budget in one pass). */
  public long spilledBytes() {
    return spilledBytes;
  }

  public int spillFiles() {
    return spillFiles;
  }

  @Override
  public void close() {
    memory.close();
  }
}
