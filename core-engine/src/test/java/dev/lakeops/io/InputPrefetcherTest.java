package dev.lakeops.io;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.Conditions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.IOUtil;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetching ahead through a real FileIO on local files: bytes arrive whole, in memory while the
 * memory set aside allows and as local copies beyond it, and every byte is given back.
 */
class InputPrefetcherTest {
  private static final int FILE_BYTES = 10_000;

  @TempDir Path temp;
  private final FileIO io = new HadoopFileIO(new Configuration(false));
  private BufferAllocator memory;
  private Path spill;

  @BeforeEach
  void allocate() throws IOException {
    // room for three files in memory: the others go to local copies
    memory = new RootAllocator(3 * FILE_BYTES + 100);
    spill = Files.createDirectories(temp.resolve("spill"));
  }

  @AfterEach
  void closeMemory() {
    // fails with outstanding buffers: everything fetched must have been given back
    memory.close();
  }

  @Test
  void servesEveryFileWholeFromMemoryOrLocalCopiesAndGivesAllBack() throws Exception {
    List<PrefetchInput> inputs = writeFiles(8, 2);
    try (InputPrefetcher prefetcher =
        InputPrefetcher.start(io, inputs, options(4, FILE_BYTES), memory, spill)) {
      for (PrefetchInput input : inputs) {
        InputFile direct = io.newInputFile(input.location(), input.length());
        Optional<ReleasableInputFile> fetched = prefetcher.fetched(input.location(), direct);
        assertThat(fetched).as(input.location()).isPresent();
        assertThat(read(fetched.get())).isEqualTo(Files.readAllBytes(Path.of(input.location())));
        fetched.get().release();
        // read again after release: from the file itself, still the same bytes
        assertThat(read(fetched.get())).isEqualTo(Files.readAllBytes(Path.of(input.location())));
      }
      Conditions.await(
          "every fetched file to be given back",
          Duration.ofSeconds(30),
          () -> prefetcher.heldBytes() == 0);
    }
    assertThat(memory.getAllocatedMemory()).isZero();
    try (java.util.stream.Stream<Path> copies = Files.list(spill)) {
      assertThat(copies).isEmpty();
    }
  }

  @Test
  void makesNoLocalCopyWhileMemoryHoldsEnoughFilesAhead() throws Exception {
    List<PrefetchInput> inputs = writeFiles(40, 10);
    // room for ten files (each reservation rounds up to 16 KiB): more than the minimum ahead
    try (BufferAllocator roomy =
            new RootAllocator(InputPrefetcher.MIN_FILES_AHEAD * 16_384L + 2 * 16_384L);
        InputPrefetcher prefetcher =
            InputPrefetcher.start(io, inputs, options(8, FILE_BYTES), roomy, spill)) {
      for (PrefetchInput input : inputs) {
        InputFile direct = io.newInputFile(input.location(), input.length());
        Optional<ReleasableInputFile> fetched = prefetcher.fetched(input.location(), direct);
        assertThat(fetched).as(input.location()).isPresent();
        assertThat(read(fetched.get())).isEqualTo(Files.readAllBytes(Path.of(input.location())));
        try (java.util.stream.Stream<Path> copies = Files.list(spill)) {
          assertThat(copies).as("local copies while memory holds the next files").isEmpty();
        }
        fetched.get().release();
      }
      Conditions.await(
          "every fetched file to be given back",
          Duration.ofSeconds(30),
          () -> prefetcher.heldBytes() == 0);
    }
  }

  @Test
  void startedGroupsGetEveryInputAtOnceBeyondMemoryThroughLocalCopies() throws Exception {
    // two groups of ten files each, memory for about one: a group reads all its footers before it
    // gives any input back, so its files must arrive even when memory is full
    List<PrefetchInput> inputs = writeFiles(20, 10);
    List<ReleasableInputFile> held = new ArrayList<>();
    try (InputPrefetcher prefetcher =
        InputPrefetcher.start(io, inputs, options(4, FILE_BYTES), memory, spill)) {
      prefetcher.groupStarted(0);
      prefetcher.groupStarted(1);
      for (PrefetchInput input : inputs) {
        InputFile direct = io.newInputFile(input.location(), input.length());
        Optional<ReleasableInputFile> fetched = prefetcher.fetched(input.location(), direct);
        assertThat(fetched).as(input.location()).isPresent();
        held.add(fetched.get());
      }
      for (int index = 0; index < inputs.size(); index++) {
        Path file = Path.of(inputs.get(index).location());
        assertThat(read(held.get(index))).isEqualTo(Files.readAllBytes(file));
        held.get(index).release();
      }
    }
    assertThat(memory.getAllocatedMemory()).isZero();
  }

  @Test
  void releasesAGroupAndItsQueuedFiles() throws Exception {
    List<PrefetchInput> inputs = writeFiles(6, 2);
    try (InputPrefetcher prefetcher =
        InputPrefetcher.start(io, inputs, options(2, FILE_BYTES), memory, spill)) {
      prefetcher.groupStarted(1);
      prefetcher.releaseGroup(0);
      // group 1's files went to the front of the queue: its reader waits for them
      for (PrefetchInput input : inputs.subList(2, 4)) {
        assertThat(
                prefetcher.fetched(
                    input.location(), io.newInputFile(input.location(), input.length())))
            .as(input.location())
            .isPresent();
      }
      // a file of the released group is not fetched any more: it is read directly
      PrefetchInput first = inputs.get(0);
      assertThat(
              prefetcher.fetched(
                  first.location(), io.newInputFile(first.location(), first.length())))
          .isEmpty();
      prefetcher.releaseGroup(1);
      prefetcher.releaseGroup(2);
      // a file still in flight when its group was released is given back when it arrives
      Conditions.await(
          "files in flight to arrive and be given back",
          Duration.ofSeconds(30),
          () -> prefetcher.heldBytes() == 0);
    }
    assertThat(memory.getAllocatedMemory()).isZero();
  }

  @Test
  void leavesFilesAboveTheWholeObjectSizeToTheReader() throws Exception {
    List<PrefetchInput> inputs = writeFiles(2, 1);
    try (InputPrefetcher prefetcher =
        InputPrefetcher.start(io, inputs, options(4, FILE_BYTES - 1), memory, spill)) {
      PrefetchInput input = inputs.get(0);
      assertThat(
              prefetcher.fetched(
                  input.location(), io.newInputFile(input.location(), input.length())))
          .isEmpty();
      assertThat(prefetcher.heldBytes()).isZero();
    }
  }

  @Test
  void closingWithFilesStillHeldGivesThemBack() throws Exception {
    List<PrefetchInput> inputs = writeFiles(6, 3);
    InputPrefetcher prefetcher =
        InputPrefetcher.start(io, inputs, options(8, FILE_BYTES), memory, spill);
    PrefetchInput input = inputs.get(0);
    assertThat(
            prefetcher.fetched(input.location(), io.newInputFile(input.location(), input.length())))
        .isPresent();
    prefetcher.close();
    prefetcher.close();
    assertThat(prefetcher.heldBytes()).isZero();
    try (java.util.stream.Stream<Path> copies = Files.list(spill)) {
      assertThat(copies).isEmpty();
    }
  }

  private static ObjectReadOptions options(int requests, long wholeObjectBytes) {
    return new ObjectReadOptions(true, requests, wholeObjectBytes);
  }

  /** {@code count} files of random bytes, {@code perGroup} to a group. */
  private List<PrefetchInput> writeFiles(int count, int perGroup) throws IOException {
    Random random = new Random(7);
    List<PrefetchInput> inputs = new ArrayList<>();
    for (int index = 0; index < count; index++) {
      byte[] bytes = new byte[FILE_BYTES];
      random.nextBytes(bytes);
      Path file = temp.resolve("input-" + index + ".bin");
      Files.write(file, bytes);
      inputs.add(new PrefetchInput(file.toString(), FILE_BYTES, index / perGroup));
    }
    return inputs;
  }

  private static byte[] read(InputFile file) throws IOException {
    byte[] bytes = new byte[(int) file.getLength()];
    try (SeekableInputStream stream = file.newStream()) {
      IOUtil.readFully(stream, bytes, 0, bytes.length);
    }
    return bytes;
  }
}
