package dev.lakeops.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * The objects of an {@link S3TestServer} bucket and the locations a table's metadata references,
 * for tests that check what was written to object storage (and that no key has an empty path
 * segment, {@code data//file.parquet}).
 */
public final class ObjectKeys {
  private ObjectKeys() {}

  /** Every object of the server's bucket, as {@code s3://bucket/key}, listed through S3 LIST. */
  public static Set<String> inBucket(S3TestServer server) {
    try (S3FileIO io = new S3FileIO()) {
      io.initialize(server.fileIoProperties());
      Set<String> locations = new TreeSet<>();
      for (FileInfo file : io.listPrefix(server.location(""))) {
        locations.add(file.location());
      }
      return locations;
    }
  }

  /**
   * Every location the table's current metadata reaches: metadata files (and their log), manifest
   * lists, manifests, and the data and delete files of every snapshot.
   */
  public static Set<String> referencedBy(Table table) {
    table.refresh();
    TableMetadata metadata = ((HasTableOperations) table).operations().current();
    Set<String> locations = new TreeSet<>();
    locations.add(metadata.metadataFileLocation());
    metadata.previousFiles().forEach(entry -> locations.add(entry.file()));
    Set<String> manifests = new TreeSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      locations.add(snapshot.manifestListLocation());
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        if (manifests.add(manifest.path())) {
          locations.addAll(contentFiles(table, manifest));
        }
      }
    }
    locations.addAll(manifests);
    return locations;
  }

  private static List<String> contentFiles(Table table, ManifestFile manifest) {
    List<String> locations = new ArrayList<>();
    try (CloseableIterable<? extends ContentFile<?>> files =
        manifest.content() == ManifestContent.DATA
            ? ManifestFiles.read(manifest, table.io(), table.specs())
            : ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
      files.forEach(file -> locations.add(file.location()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return locations;
  }

  /** The locations whose path (after {@code scheme://}) has an empty segment. */
  public static List<String> withEmptySegment(Collection<String> locations) {
    return locations.stream()
        .filter(location -> location.substring(location.indexOf("://") + 3).contains("//"))
        .toList();
  }

  /** Writes {@code content} to {@code location} through {@code io} (a real PUT on S3). */
  public static void put(FileIO io, String location, String content) {
    try (PositionOutputStream out = io.newOutputFile(location).createOrOverwrite()) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Makes the object at {@code location} (or every object below it) look last written {@code age}
   * ago: s3proxy's file system store answers with the file's modification time.
   */
  public static void age(S3TestServer server, String location, Duration age) {
    String prefix = server.location("");
    if (!location.startsWith(prefix)) {
      throw new IllegalArgumentException(location + " is not in bucket " + server.bucket());
    }
    Path path = server.bucketDirectory().resolve(location.substring(prefix.length()));
    FileTime time = FileTime.from(Instant.now().minus(age));
    try (Stream<Path> files = Files.walk(path)) {
      for (Path file : files.filter(Files::isRegularFile).toList()) {
        Files.setLastModifiedTime(file, time);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
