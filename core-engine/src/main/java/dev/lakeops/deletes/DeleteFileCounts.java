package dev.lakeops.deletes;

import java.util.Collection;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Delete files by kind.
 *
 * @param positionDeleteFiles position delete files (not deletion vectors)
 * @param equalityDeleteFiles equality delete files
 * @param deletionVectors deletion vectors (format v3)
 */
public record DeleteFileCounts(
    int positionDeleteFiles, int equalityDeleteFiles, int deletionVectors) {
  public static final DeleteFileCounts NONE = new DeleteFileCounts(0, 0, 0);

  public static DeleteFileCounts of(Collection<DeleteFile> files) {
    int positions = 0;
    int equalities = 0;
    int vectors = 0;
    for (DeleteFile file : files) {
      if (file.content() == FileContent.EQUALITY_DELETES) {
        equalities++;
      } else if (ContentFileUtil.isDV(file)) {
        vectors++;
      } else {
        positions++;
      }
    }
    return new DeleteFileCounts(positions, equalities, vectors);
  }

  public int total() {
    return positionDeleteFiles + equalityDeleteFiles + deletionVectors;
  }
}
