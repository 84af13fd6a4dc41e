package dev.lakeops.rewrite;

import java.util.Collection;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.io.FileIO;

/** Deletes files a failed rewrite wrote, keeping every deletion failure as a suppressed error. */
public final class OutputCleaner {
  private OutputCleaner() {}

  public static void deleteQuietly(
      FileIO io, Collection<? extends ContentFile<?>> files, Throwable cause) {
    for (ContentFile<?> file : files) {
      try {
        io.deleteFile(file.location());
      } catch (RuntimeException e) {
        if (cause != null) {
          cause.addSuppressed(e);
        }
      }
    }
  }
}
