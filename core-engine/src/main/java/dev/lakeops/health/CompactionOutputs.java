package dev.lakeops.health;

import org.apache.iceberg.ContentFile;

/**
 * The one rule for "a file an earlier compaction wrote", read from the file's own metadata: a
 * rewrite that keeps its starting sequence number (Iceberg's and LakeOps' default) commits its
 * outputs with a data sequence number older than the commit that adds them, while a writer's files
 * carry their commit's. The planner and the health tracker use it alike, so the triggers and the
 * rewrite agree on which small files are compaction outputs still waiting to converge.
 */
public final class CompactionOutputs {
  private CompactionOutputs() {}

  /** Whether {@code file} was added by a rewrite that kept its starting sequence number. */
  public static boolean isCompactionOutput(ContentFile<?> file) {
    Long data = file.dataSequenceNumber();
    Long added = file.fileSequenceNumber();
    return data != null && added != null && data < added;
  }
}
