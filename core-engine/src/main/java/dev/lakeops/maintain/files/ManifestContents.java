package dev.lakeops.maintain.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;

/** Streams the locations of the live (added or existing) files a manifest lists. */
public final class ManifestContents {
  private ManifestContents() {}

  /**
   * Calls {@code consumer} with every live data or delete file location of {@code manifest}. A
   * deletion vector's location is its Puffin file, shared by many vectors.
   */
  public static void forEachLiveLocation(
      ManifestFile manifest,
      FileIO io,
      Map<Integer, PartitionSpec> specs,
      Consumer<String> consumer) {
    forEachLiveFile(manifest, io, specs, (location, content) -> consumer.accept(location));
  }

  /**
   * Like {@link #forEachLiveLocation}, with each file's content kind (data, position or equality
   * deletes).
   */
  public static void forEachLiveFile(
      ManifestFile manifest,
      FileIO io,
      Map<Integer, PartitionSpec> specs,
      BiConsumer<String, FileContent> consumer) {
    if (manifest.content() == ManifestContent.DATA) {
      try (CloseableIterable<String> paths = ManifestFiles.readPaths(manifest, io, specs)) {
        paths.forEach(path -> consumer.accept(path, FileContent.DATA));
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
      }
      return;
    }
    try (ManifestReader<? extends ContentFile<?>> reader =
        ManifestFiles.readDeleteManifest(manifest, io, specs)) {
      for (ContentFile<?> file : reader) {
        consumer.accept(file.location(), file.content());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read manifest " + manifest.path(), e);
    }
  }
}
