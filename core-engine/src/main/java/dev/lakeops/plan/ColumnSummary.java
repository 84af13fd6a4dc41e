package dev.lakeops.plan;

import static java.util.Objects.requireNonNull;

import java.io.Serial;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;

/**
 * What the footers of a file group's data files say about one column, folded into one summary while
 * planning streams the files, so a plan never holds every file's statistics: the smallest lower and
 * largest upper bound when every file has both, and whether every file proves the same single
 * non-null value.
 *
 * @param fieldId the column
 * @param lowerBytes the smallest lower bound of the group (Iceberg's single-value serialization);
 *     null when a file has none
 * @param upperBytes the largest upper bound of the group; null when a file has none
 * @param singleValue whether every file holds no null and equal lower and upper bounds, the same in
 *     every file (then the lower bound is that value)
 */
public record ColumnSummary(int fieldId, byte[] lowerBytes, byte[] upperBytes, boolean singleValue)
    implements Serializable {
  @Serial private static final long serialVersionUID = 1L;

  public ColumnSummary {
    lowerBytes = lowerBytes == null ? null : lowerBytes.clone();
    upperBytes = upperBytes == null ? null : upperBytes.clone();
  }

  /** The summary of column {@code fieldId} of type {@code type} over the files of {@code tasks}. */
  public static ColumnSummary of(int fieldId, Type type, List<FileScanTask> tasks) {
    Folder folder = new Folder(fieldId, type);
    tasks.forEach(task -> folder.add(task.file()));
    return folder.summary();
  }

  /** The lower bound as a value of {@code type}, when every file had one. */
  public Optional<Object> lowerValue(Type type) {
    return Optional.ofNullable(lowerBytes)
        .map(bytes -> Conversions.fromByteBuffer(type, ByteBuffer.wrap(bytes)));
  }

  /** The upper bound as a value of {@code type}, when every file had one. */
  public Optional<Object> upperValue(Type type) {
    return Optional.ofNullable(upperBytes)
        .map(bytes -> Conversions.fromByteBuffer(type, ByteBuffer.wrap(bytes)));
  }

  /** Folds files' statistics of one column into a {@link ColumnSummary}, one file at a time. */
  static final class Folder {
    private final int fieldId;
    private final Type type;
    private final Comparator<Object> order;
    private boolean boundsKnown = true;
    private boolean singleValue = true;
    private boolean empty = true;
    private Object lower;
    private Object upper;
    private ByteBuffer shared;

    @SuppressWarnings("unchecked")
    Folder(int fieldId, Type type) {
      this.fieldId = fieldId;
      this.type = requireNonNull(type, "type is null");
      this.order =
          type.isPrimitiveType()
              ? (Comparator<Object>) Comparators.forType(type.asPrimitiveType())
              : null;
    }

    void add(DataFile file) {
      empty = false;
      ByteBuffer fileLower = file.lowerBounds() == null ? null : file.lowerBounds().get(fieldId);
      ByteBuffer fileUpper = file.upperBounds() == null ? null : file.upperBounds().get(fieldId);
      Long nulls = file.nullValueCounts() == null ? null : file.nullValueCounts().get(fieldId);
      if (nulls == null
          || nulls != 0
          || fileLower == null
          || !fileLower.equals(fileUpper)
          || (shared != null && !shared.equals(fileLower))) {
        singleValue = false;
      } else if (shared == null) {
        shared = fileLower;
      }
      if (fileLower == null || fileUpper == null || order == null) {
        boundsKnown = false;
      }
      if (!boundsKnown) {
        return;
      }
      Object lowerValue = Conversions.fromByteBuffer(type, fileLower.duplicate());
      Object upperValue = Conversions.fromByteBuffer(type, fileUpper.duplicate());
      lower = lower == null || order.compare(lowerValue, lower) < 0 ? lowerValue : lower;
      upper = upper == null || order.compare(upperValue, upper) > 0 ? upperValue : upper;
    }

    ColumnSummary summary() {
      boolean known = boundsKnown && !empty;
      return new ColumnSummary(
          fieldId,
          known ? bytes(Conversions.toByteBuffer(type, lower)) : null,
          known ? bytes(Conversions.toByteBuffer(type, upper)) : null,
          singleValue && !empty && shared != null && known);
    }

    private static byte[] bytes(ByteBuffer buffer) {
      ByteBuffer source = buffer.duplicate();
      byte[] bytes = new byte[source.remaining()];
      source.get(bytes);
      return bytes;
    }
  }
}
