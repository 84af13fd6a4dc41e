package dev.lakeops.maintain.orphan;

import static java.util.Objects.requireNonNull;

import java.net.URI;
import org.apache.hadoop.fs.Path;

/**
 * A file location split into scheme, authority and normalized path, so {@code file:/t/a} and {@code
 * /t/a} compare by path. Scheme and authority are empty strings when absent.
 */
record FileLocation(String scheme, String authority, String path) {
  FileLocation {
    requireNonNull(scheme, "scheme is null");
    requireNonNull(authority, "authority is null");
    requireNonNull(path, "path is null");
  }

  static FileLocation parse(String location) {
    URI uri = new Path(location).toUri();
    return new FileLocation(
        uri.getScheme() == null ? "" : uri.getScheme(),
        uri.getAuthority() == null ? "" : uri.getAuthority(),
        uri.getPath());
  }

  String prefix() {
    return scheme.isEmpty() ? "(none)" : scheme + "://" + authority;
  }

  /** Whether this location is {@code directory} or below it, by path. */
  boolean isWithin(FileLocation directory) {
    String parent = directory.path.endsWith("/") ? directory.path : directory.path + "/";
    return path.equals(directory.path) || path.startsWith(parent);
  }
}
