package dev.lakeops.testing;

import static java.util.Objects.requireNonNull;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * A module's runtime class path as maven-dependency-plugin's {@code build-classpath} goal writes it
 * (entries joined by the path separator): what an engine host (the Spark runtime jar, the Trino
 * plugin directory, the Flink hook) ships. The hosts' tests check that it carries none of the
 * daemon's code ({@code lakeops-server}) and none of the libraries only the daemon uses.
 */
public final class RuntimeClassPath {
  /** The packages of {@code lakeops-server}, as class-file directories. */
  private static final List<String> SERVER_PACKAGES =
      List.of("control", "web", "policy", "trigger", "observe", "learn", "members").stream()
          .map(name -> "dev/lakeops/" + name + "/")
          .toList();

  /** Jar names (their start) of the daemon's module and of the libraries only it uses. */
  private static final List<String> SERVER_LIBRARIES =
      List.of(
          "lakeops-server", "jackson-dataformat-yaml", "snakeyaml", "prometheus-metrics", "uplot");

  private final List<Path> entries;

  private RuntimeClassPath(List<Path> entries) {
    this.entries = List.copyOf(requireNonNull(entries, "entries is null"));
  }

  /** Reads {@code file}; names the system property that should point at it when it is missing. */
  public static RuntimeClassPath read(String property) {
    String file = System.getProperty(property);
    if (file == null || !Files.isRegularFile(Path.of(file))) {
      throw new IllegalStateException(
          "No runtime class path file at system property "
              + property
              + " ("
              + file
              + "): run the test through Maven, whose build-classpath execution writes it");
    }
    try {
      String text = Files.readString(Path.of(file)).trim();
      List<Path> entries =
          text.isEmpty()
              ? List.of()
              : Arrays.stream(text.split(File.pathSeparator)).map(Path::of).toList();
      return new RuntimeClassPath(entries);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public List<Path> entries() {
    return entries;
  }

  /** The entries that are the daemon's module or a library only the daemon uses. */
  public List<Path> serverLibraries() {
    return entries.stream()
        .filter(
            entry -> {
              String name = libraryName(entry);
              return SERVER_LIBRARIES.stream().anyMatch(name::startsWith);
            })
        .toList();
  }

  /** Each entry holding a class of a daemon package, with the first such class it holds. */
  public List<String> serverClasses() {
    List<String> found = new ArrayList<>();
    for (Path entry : entries) {
      serverClassIn(entry).ifPresent(name -> found.add(entry + ": " + name));
    }
    return found;
  }

  /** A jar's file name, or for a reactor module's classes directory its module's name. */
  private static String libraryName(Path entry) {
    Path name = entry.getFileName();
    if (Files.isDirectory(entry) && entry.getParent() != null) {
      // <module>/target/classes
      Path module = entry.getParent().getParent();
      name = module == null ? name : module.getFileName();
    }
    return name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
  }

  private static Optional<String> serverClassIn(Path entry) {
    if (Files.isDirectory(entry)) {
      return SERVER_PACKAGES.stream()
          .filter(name -> Files.isDirectory(entry.resolve(name)))
          .findFirst();
    }
    if (!Files.isRegularFile(entry)) {
      return Optional.empty();
    }
    try (ZipFile jar = new ZipFile(entry.toFile())) {
      return jar.stream()
          .map(ZipEntry::getName)
          .filter(name -> name.endsWith(".class"))
          .filter(name -> SERVER_PACKAGES.stream().anyMatch(name::startsWith))
          .findFirst();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot read class path entry " + entry, e);
    }
  }
}
