package dev.lakeops.maintain;

import dev.lakeops.verify.RowFingerprint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/** Test helpers that look at a local table from the outside: its files on disk and its rows. */
public final class TableFiles {
  private TableFiles() {}

  /** Every visible file under the table location (no {@code .crc}). */
  public static Set<Path> onDisk(Table table) {
    Path root = Path.of(table.location().replaceFirst("^file:", ""));
    try (Stream<Path> files = Files.walk(root)) {
      return files
          .filter(Files::isRegularFile)
          .filter(file -> !file.getFileName().toString().startsWith("."))
          .collect(Collectors.toCollection(TreeSet::new));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sets every file under the table location to {@code age} ago. */
  public static void ageAll(Table table, Duration age) {
    for (Path file : onDisk(table)) {
      age(file, age);
    }
  }

  public static void age(Path file, Duration age) {
    try {
      Files.setLastModifiedTime(file, FileTime.from(Instant.now().minus(age)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static Path plant(Path file, Duration age) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, "orphan");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    age(file, age);
    return file;
  }

  /** Reads every snapshot the table keeps; fails if any file it needs is missing. */
  public static Map<Long, RowFingerprint> readEverySnapshot(Table table) {
    table.refresh();
    Map<Long, RowFingerprint> rows = new LinkedHashMap<>();
    for (Snapshot snapshot : table.snapshots()) {
      rows.put(snapshot.snapshotId(), RowFingerprint.of(table, snapshot.snapshotId()));
    }
    return rows;
  }

  public static Path locationOf(Table table) {
    return Path.of(table.location().replaceFirst("^file:", ""));
  }
}
