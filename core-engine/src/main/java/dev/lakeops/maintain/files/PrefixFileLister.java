package dev.lakeops.maintain.files;

import static java.util.Objects.requireNonNull;

import java.time.Instant;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Lists through {@link SupportsPrefixOperations#listPrefix}, lazily, page by page. Directory
 * markers (empty objects whose key ends in {@code /}, left by tools that create "folders" on an
 * object store) are not files and are skipped.
 */
final class PrefixFileLister implements FileLister {
  private final SupportsPrefixOperations io;

  PrefixFileLister(SupportsPrefixOperations io) {
    this.io = requireNonNull(io, "io is null");
  }

  @Override
  public Stream<ListedFile> list(String location) {
    String prefix = location.endsWith("/") ? location : location + "/";
    Iterable<FileInfo> files = io.listPrefix(prefix);
    return StreamSupport.stream(files.spliterator(), false)
        .filter(file -> !file.location().endsWith("/"))
        .filter(
            file ->
                !hasHiddenPart(
                    file.location().substring(Math.min(prefix.length(), file.location().length()))))
        .map(
            file ->
                new ListedFile(
                    file.location(), file.size(), Instant.ofEpochMilli(file.createdAtMillis())));
  }

  private static boolean hasHiddenPart(String relativePath) {
    for (String part : relativePath.split("/")) {
      if (!part.isEmpty() && FileLister.isHidden(part)) {
        return true;
      }
    }
    return false;
  }
}
