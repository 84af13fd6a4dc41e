package dev.lakeops.maintain.files;

import static java.util.Objects.requireNonNull;

import java.time.Instant;

/**
 * One file found by a {@link FileLister}.
 *
 * @param location the full location as the file system reports it
 * @param sizeBytes the file's length
 * @param lastModified when the file was last written
 */
public record ListedFile(String location, long sizeBytes, Instant lastModified) {
  public ListedFile {
    requireNonNull(location, "location is null");
    requireNonNull(lastModified, "lastModified is null");
  }
}
