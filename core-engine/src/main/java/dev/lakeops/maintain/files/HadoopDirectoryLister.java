package dev.lakeops.maintain.files;

import static java.util.Objects.requireNonNull;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Walks a Hadoop file system (local, HDFS, s3a, ...) with one task per directory on a small pool,
 * so wide partition trees are listed in parallel. Files reach the caller through a bounded queue as
 * they are found; closing the stream stops the walk.
 */
final class HadoopDirectoryLister implements FileLister {
  private final Configuration conf;
  private final int parallelism;

  HadoopDirectoryLister(Configuration conf, int parallelism) {
    this.conf = requireNonNull(conf, "conf is null");
    if (parallelism < 1) {
      throw new IllegalArgumentException(
          "Listing parallelism must be at least 1, got " + parallelism);
    }
    this.parallelism = parallelism;
  }

  @Override
  public Stream<ListedFile> list(String location) {
    Path root = new Path(location);
    FileSystem fileSystem;
    try {
      fileSystem = root.getFileSystem(conf);
      if (!fileSystem.exists(root)) {
        throw new IllegalArgumentException(
            "Location " + location + " does not exist: nothing to list");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot open the file system of " + location, e);
    }
    DirectoryWalk walk = new DirectoryWalk(fileSystem, parallelism);
    walk.start(root);
    return StreamSupport.stream(
            Spliterators.spliteratorUnknownSize(walk, Spliterator.NONNULL | Spliterator.DISTINCT),
            false)
        .onClose(walk::close);
  }
}
