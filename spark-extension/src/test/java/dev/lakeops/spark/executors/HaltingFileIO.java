package dev.lakeops.spark.executors;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.OutputFile;
import org.apache.spark.TaskContext;

/**
 * Iceberg's {@link HadoopFileIO} that can kill the executor it runs in, once: when a LakeOps group
 * task's first attempt opens an output file while the trigger file {@code <dir>/halt-once} exists
 * (set with {@link #arm}; {@code <dir>} is the executors' system property {@value
 * #DIRECTORY_PROPERTY}), exactly one executor deletes the trigger, writes half a Parquet file at
 * that path, notes the path in {@code <dir>/halted-file} and halts its JVM, as a machine lost
 * mid-group would. Otherwise it is plain {@code HadoopFileIO}.
 */
public final class HaltingFileIO extends HadoopFileIO {
  /** The executors' system property naming the folder of the trigger file. */
  static final String DIRECTORY_PROPERTY = "lakeops.test.halt-directory";

  /**
   * Arms the next first attempt of a LakeOps group task, through a file under {@code directory}.
   */
  static void arm(Path directory) throws IOException {
    Files.writeString(directory.resolve("halt-once"), "armed");
  }

  static Path haltedFile(Path directory) throws IOException {
    return Path.of(Files.readString(directory.resolve("halted-file")));
  }

  private static Path directory() {
    return Path.of(System.getProperty(DIRECTORY_PROPERTY));
  }

  @Override
  public OutputFile newOutputFile(String path) {
    TaskContext task = TaskContext.get();
    if (task != null
        && task.attemptNumber() == 0
        && System.getProperty(DIRECTORY_PROPERTY) != null
        && path.contains("-attempt-")
        && claimTrigger()) {
      haltAfterWritingHalf(path);
    }
    return super.newOutputFile(path);
  }

  private static boolean claimTrigger() {
    try {
      Files.delete(directory().resolve("halt-once"));
      return true;
    } catch (NoSuchFileException e) {
      return false;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void haltAfterWritingHalf(String location) {
    Path file = Path.of(location.replaceFirst("^file:", ""));
    try {
      Files.createDirectories(file.getParent());
      try (OutputStream out = Files.newOutputStream(file)) {
        out.write("PAR1 half a file".getBytes(StandardCharsets.US_ASCII));
      }
      Files.writeString(directory().resolve("halted-file"), file.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Runtime.getRuntime().halt(137);
  }
}
