package dev.lakeops.trino.fs;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Reads and writes Trino's {@code local://} locations ({@code fs.local.enabled=true}): {@code
 * local:///db/t/data/f.parquet} is the file {@code <local.location>/db/t/data/f.parquet}. Every
 * location keeps the {@code local://} form it was given, so what LakeOps commits Trino reads back.
 * Other schemes ({@code file:}, ...) go to a Hadoop FileIO unchanged.
 *
 * <p>Iceberg loads a FileIO by class name and then calls {@link #initialize}; that is the only
 * mutable state, set once before use.
 */
public final class LocalSchemeFileIO implements FileIO, SupportsPrefixOperations {
  /** Catalog property naming the root directory of {@code local://}. */
  public static final String ROOT_PROPERTY = "lakeops.local.location";

  private static final String SCHEME = "local:";

  private Path root;
  private HadoopFileIO delegate;
  private Map<String, String> properties = Map.of();

  public LocalSchemeFileIO() {}

  public LocalSchemeFileIO(Path root) {
    initialize(Map.of(ROOT_PROPERTY, root.toString()));
  }

  @Override
  public void initialize(Map<String, String> catalogProperties) {
    String location = catalogProperties.get(ROOT_PROPERTY);
    if (location == null || location.isBlank()) {
      throw new IllegalArgumentException(ROOT_PROPERTY + " is required (from local.location)");
    }
    this.properties = Map.copyOf(catalogProperties);
    this.root = Path.of(location).toAbsolutePath().normalize();
    Configuration configuration = new Configuration();
    // No .crc side files next to what Trino writes and reads
    configuration.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    configuration.setBoolean("fs.file.impl.disable.cache", true);
    this.delegate = new HadoopFileIO(configuration);
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  /** The local file a {@code local://} location names. */
  public Path resolve(String location) {
    requireNonNull(location, "location is null");
    String path = location.substring(SCHEME.length());
    while (path.startsWith("/")) {
      path = path.substring(1);
    }
    Path resolved = root.resolve(path).normalize();
    if (!resolved.startsWith(root)) {
      throw new IllegalArgumentException(
          "Location " + location + " points outside local.location " + root);
    }
    return resolved;
  }

  private static boolean isLocal(String location) {
    return location.startsWith(SCHEME);
  }

  private String hadoopPath(String location) {
    return isLocal(location) ? resolve(location).toUri().toString() : location;
  }

  @Override
  public InputFile newInputFile(String location) {
    if (!isLocal(location)) {
      return delegate.newInputFile(location);
    }
    return new RenamedInputFile(location, delegate.newInputFile(hadoopPath(location)));
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    if (!isLocal(location)) {
      return delegate.newInputFile(location, length);
    }
    return new RenamedInputFile(location, delegate.newInputFile(hadoopPath(location), length));
  }

  @Override
  public OutputFile newOutputFile(String location) {
    if (!isLocal(location)) {
      return delegate.newOutputFile(location);
    }
    return new RenamedOutputFile(location, delegate.newOutputFile(hadoopPath(location)));
  }

  @Override
  public void deleteFile(String location) {
    delegate.deleteFile(hadoopPath(location));
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    if (!isLocal(prefix)) {
      return delegate.listPrefix(prefix);
    }
    Path directory = resolve(prefix);
    String base = prefix.endsWith("/") ? prefix : prefix + "/";
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> files = Files.walk(directory)) {
      return files
          .filter(Files::isRegularFile)
          .map(
              file ->
                  fileInfo(base + directory.relativize(file).toString().replace('\\', '/'), file))
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + prefix + " (" + directory + ")", e);
    }
  }

  private static FileInfo fileInfo(String location, Path file) {
    try {
      return new FileInfo(location, Files.size(file), Files.getLastModifiedTime(file).toMillis());
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read attributes of " + file, e);
    }
  }

  @Override
  public void deletePrefix(String prefix) {
    if (!isLocal(prefix)) {
      delegate.deletePrefix(prefix);
      return;
    }
    Path directory = resolve(prefix);
    try (Stream<Path> files = Files.walk(directory)) {
      for (Path path : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    } catch (NoSuchFileException e) {
      // nothing to delete
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot delete " + prefix + " (" + directory + ")", e);
    }
  }

  @Override
  public void close() {
    if (delegate != null) {
      delegate.close();
    }
  }
}
