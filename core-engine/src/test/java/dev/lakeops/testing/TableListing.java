package dev.lakeops.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;

/** Files on disk versus files the table's snapshots reference, for crash and cleanup tests. */
public final class TableListing {
  private TableListing() {}

  /** Data and delete files (Parquet and Puffin) under the table's data directory. */
  public static Set<String> filesOnDisk(Table table) {
    Path data = Path.of(table.location().replaceFirst("^file:", ""), "data");
    if (!Files.exists(data)) {
      return Set.of();
    }
    try (Stream<Path> paths = Files.walk(data)) {
      Set<String> files = new HashSet<>();
      paths
          .filter(Files::isRegularFile)
          .map(Path::toString)
          .filter(name -> name.endsWith(".parquet") || name.endsWith(".puffin"))
          .forEach(files::add);
      return files;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Locations of every data and delete file live in any snapshot of the table. */
  public static Set<String> referencedFiles(Table table) {
    table.refresh();
    Set<String> referenced = new HashSet<>();
    Set<String> manifests = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        if (!manifests.add(manifest.path())) {
          continue;
        }
        try (CloseableIterable<? extends ContentFile<?>> files =
            manifest.content() == org.apache.iceberg.ManifestContent.DATA
                ? ManifestFiles.read(manifest, table.io(), table.specs())
                : ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
          files.forEach(file -> referenced.add(file.location().replaceFirst("^file:", "")));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return referenced;
  }

  /** Files on disk that no snapshot references: leftovers of failed or killed writes. */
  public static Set<String> unreferencedFiles(Table table) {
    Set<String> unreferenced = new HashSet<>(filesOnDisk(table));
    unreferenced.removeAll(referencedFiles(table));
    return unreferenced;
  }

  public static List<String> sorted(Set<String> files) {
    return files.stream().sorted().toList();
  }
}
