package dev.lakeops.rewrite.copy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.hadoop.HadoopInputFile;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Local files opened for the merge read the same bytes, at the same positions, as Hadoop's. */
class TestInputStreams {
  @TempDir Path directory;

  @Test
  void readsLocalFilesInEveryLocationFormLikeHadoop() throws IOException {
    byte[] content = new byte[300_000];
    new Random(3).nextBytes(content);
    Path file = directory.resolve("data.parquet");
    Files.write(file, content);
    Configuration configuration = new Configuration();

    for (String location : new String[] {"file:" + file, "file://" + file, file.toString()}) {
      InputFile input = HadoopInputFile.fromLocation(location, configuration);
      try (SeekableInputStream ours = InputStreams.open(input);
          SeekableInputStream hadoops = input.newStream()) {
        assertThat(ours.getClass().getSimpleName()).isEqualTo("FileChannelInputStream");
        for (long position : new long[] {250_000, 0, 123_457, 299_990}) {
          ours.seek(position);
          hadoops.seek(position);
          byte[] expected = new byte[(int) Math.min(40_000, content.length - position)];
          byte[] actual = new byte[expected.length];
          readFully(hadoops, expected);
          readFully(ours, actual);
          assertThat(actual).as("%s at %d", location, position).isEqualTo(expected);
          assertThat(ours.getPos()).isEqualTo(hadoops.getPos());
        }
        assertThat(ours.read()).isEqualTo(-1);
      }
    }
  }

  @Test
  void readsThroughTheInputFilesOwnStreamElsewhere() throws IOException {
    byte[] content = "PAR1 not local".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    InputFile inMemory = org.apache.iceberg.Files.localInput(directory.resolve("x").toFile());
    Files.write(directory.resolve("x"), content);

    try (SeekableInputStream stream = InputStreams.open(inMemory)) {
      byte[] read = new byte[content.length];
      readFully(stream, read);
      assertThat(stream.getClass().getSimpleName()).isNotEqualTo("FileChannelInputStream");
      assertThat(Arrays.equals(read, content)).isTrue();
    }
  }

  private static void readFully(SeekableInputStream stream, byte[] target) throws IOException {
    int done = 0;
    while (done < target.length) {
      int count = stream.read(target, done, target.length - done);
      assertThat(count).isPositive();
      done += count;
    }
  }
}
