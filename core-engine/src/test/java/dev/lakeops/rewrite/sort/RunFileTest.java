package dev.lakeops.rewrite.sort;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.io.UncachedFileOutput;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.impl.UnionListWriter;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Run files: batches of every kind of column come back as written, strings of a small alphabet and
 * sorted numbers are stored in fewer bytes than they hold, and a damaged or cut-short file is an
 * error naming it.
 */
class RunFileTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Field.nullable("id", new ArrowType.Int(64, true)),
              Field.nullable("hex", ArrowType.Utf8.INSTANCE),
              Field.nullable("agent", ArrowType.Utf8.INSTANCE),
              Field.nullable("bytes", ArrowType.Binary.INSTANCE),
              Field.nullable("amount", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)),
              Field.nullable("flag", ArrowType.Bool.INSTANCE),
              new Field(
                  "numbers",
                  FieldType.nullable(ArrowType.List.INSTANCE),
                  List.of(Field.nullable("element", new ArrowType.Int(32, true))))));

  private static final Schema ONE_STRING =
      new Schema(List.of(Field.nullable("value", ArrowType.Utf8.INSTANCE)));

  private static final Schema ONE_LONG =
      new Schema(List.of(Field.nullable("value", new ArrowType.Int(64, true))));

  private static final Schema ONE_DOUBLE =
      new Schema(
          List.of(
              Field.nullable("value", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE))));

  private static final List<String> AGENTS =
      List.of(
          "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0",
          "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0",
          "curl/8.11.0",
          "",
          "python-requests/2.32.3",
          "okhttp/4.12.0");

  @TempDir Path directory;
  private BufferAllocator allocator;

  @BeforeEach
  void createAllocator() {
    allocator = new RootAllocator(64L << 20);
  }

  @AfterEach
  void closeAllocatorFailingOnLeaks() {
    allocator.close();
  }

  @Test
  void batchesComeBackAsWritten() throws IOException {
    Path file = directory.resolve("run");
    List<String> written = new ArrayList<>();
    long stored;
    try (RunFileWriter writer = new RunFileWriter(create(file), SCHEMA)) {
      for (int size : new int[] {1024, 0, 1, 700}) {
        try (VectorSchemaRoot batch = batch(size, new Random(size))) {
          writer.write(batch);
          if (size > 0) {
            written.add(render(batch));
          }
        }
      }
      writer.finish();
      stored = writer.storedBytes();
    }
    assertThat(Files.size(file)).isEqualTo(stored);

    assertThat(readAll(file, SCHEMA)).isEqualTo(written);
  }

  @Test
  void hexStringsAreStoredInAboutHalfTheirBytes() throws IOException {
    Path file = directory.resolve("run");
    OneColumnRun run = writeOneColumn(file, random -> randomHex(random));

    // 32 hex digits a value carry 16 bytes of information; the offsets repeat one length
    assertThat(run.storedBytes()).isLessThan((long) (run.rawBytes() * 0.55));
    assertThat(readAll(file, ONE_STRING)).isEqualTo(run.batches());
  }

  @Test
  void prefixedHexIsStoredAsItsPrefixOnceAndFourBitsADigit() throws IOException {
    Path file = directory.resolve("run");
    OneColumnRun run = writeOneColumn(file, random -> "session-" + randomHex(random).substring(16));

    // 16 digits in 8 bytes of 28 (24 bytes and an offset); zstd codes the digits in about 8.5
    // bytes and the repeated prefix in two or three more
    assertThat(run.storedBytes()).isLessThan(run.rawBytes() * 9 / 28);
    assertThat(readAll(file, ONE_STRING)).isEqualTo(run.batches());
  }

  @Test
  void base64IsStoredInThreeQuartersOfItsBytes() throws IOException {
    Path file = directory.resolve("run");
    OneColumnRun run =
        writeOneColumn(
            file,
            random -> {
              byte[] bytes = new byte[24];
              random.nextBytes(bytes);
              return Base64.getEncoder().encodeToString(bytes);
            });

    // 32 characters of 6 bits each in 24 bytes of 36 (with the offset)
    assertThat(run.storedBytes()).isLessThan(run.rawBytes() * 25 / 36);
    assertThat(readAll(file, ONE_STRING)).isEqualTo(run.batches());
  }

  @Test
  void stringsWhoseAlphabetGrowsMidRunComeBackAsWritten() throws IOException {
    Path file = directory.resolve("run");
    // hex in the first batches (the probe picks packing), then batches whose values use far more
    // than 64 distinct bytes, then values shorter than the first ones' prefix
    int[] made = {0};
    OneColumnRun run =
        writeOneColumn(
            file,
            random -> {
              int value = made[0]++;
              if (value < 3 * 1024) {
                return "id-" + randomHex(random);
              }
              if (value < 9 * 1024 && value % 5 == 0) {
                return "Grüße, Zürich! " + random.nextInt() + " ~ " + (char) (33 + value % 90);
              }
              return value % 7 == 0 ? "" : "id-" + randomHex(random).substring(value % 30);
            });

    assertThat(readAll(file, ONE_STRING)).isEqualTo(run.batches());
  }

  @Test
  void repeatedStringsAreStoredAsDictionaryIds() throws IOException {
    Path file = directory.resolve("run");
    OneColumnRun run = writeOneColumn(file, random -> AGENTS.get(random.nextInt(AGENTS.size())));

    // six values: an id of under three bits a row, against zstd's matches of a few bytes each
    assertThat(run.storedBytes()).isLessThan(run.rawBytes() / 40);
    assertThat(readAll(file, ONE_STRING)).isEqualTo(run.batches());
  }

  @Test
  void sortedTimestampsAreStoredAsTheirDifferences() throws IOException {
    Path file = directory.resolve("run");
    long[] next = {1_796_000_000_000_000L};
    LongColumnRun run =
        writeOneLongColumn(
            file, (random, row) -> row % 11 == 4 ? null : (next[0] -= random.nextInt(1_000_000)));

    // steps of up to a second in microseconds: 20 bits a row, where the values differ from each
    // other in five bytes (and take eight)
    assertThat(run.storedBytes()).isLessThan(run.rawBytes() / 2);
    assertThat(readAll(file, ONE_LONG)).isEqualTo(run.batches());
  }

  @Test
  void idsOfAFewMillionArePackedInTheBitsTheyNeed() throws IOException {
    Path file = directory.resolve("run");
    LongColumnRun run =
        writeOneLongColumn(
            file, (random, row) -> row % 10 == 3 ? null : 40_000_000L + random.nextInt(1 << 22));

    // 22 bits a value (a fast compressor leaves about 4 of the 8 bytes of such ids)
    assertThat(run.storedBytes()).isLessThan(run.rawBytes() * 24 / 64);
    assertThat(readAll(file, ONE_LONG)).isEqualTo(run.batches());
  }

  @Test
  void wholeSecondsArePackedAsSecondsNotMicroseconds() throws IOException {
    Path file = directory.resolve("run");
    long day = 1_796_000_000_000_000L;
    LongColumnRun run =
        writeOneLongColumn(
            file, (random, row) -> day + 1_000_000L * random.nextInt(86_400) + 7_000_000L);

    // 17 bits a value: the distances share a divisor of a million
    assertThat(run.storedBytes()).isLessThan(run.rawBytes() * 18 / 64);
    assertThat(readAll(file, ONE_LONG)).isEqualTo(run.batches());
  }

  @Test
  void amountsOfTwoDecimalPlacesArePackedAsCents() throws IOException {
    Path file = directory.resolve("run");
    DoubleColumnRun run =
        writeOneDoubleColumn(
            file, (random, row) -> row % 9 == 2 ? null : random.nextInt(10_000_000) / 100.0);

    // 24 bits a value: cents below 10^7
    assertThat(run.storedBytes()).isLessThan(run.rawBytes() * 26 / 64);
    assertThat(readDoubleBits(file)).isEqualTo(run.batches());
  }

  @Test
  void doublesThatAreNoDecimalsComeBackBitForBit() throws IOException {
    Path file = directory.resolve("run");
    double[] awkward = {
      -0.0,
      0.0,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      0.1 + 0.2,
      Double.MIN_VALUE,
      Double.MAX_VALUE,
      1e300,
      -123.456789,
      9.007199254740993e15
    };
    // decimals alone in the first batches (the probe picks their packed form), awkward ones after
    int[] made = {0};
    DoubleColumnRun run =
        writeOneDoubleColumn(
            file,
            (random, row) ->
                made[0]++ > 3 * 1024 && row % 3 == 0
                    ? awkward[random.nextInt(awkward.length)]
                    : random.nextInt(1000) / 10.0);

    assertThat(readDoubleBits(file)).isEqualTo(run.batches());
  }

  @Test
  void packedLongsOfEveryWidthComeBackAsPacked() {
    Random random = new Random(11);
    for (int width = 0; width <= PackedLongs.MAX_WIDTH + 2; width++) {
      int count = 1 + random.nextInt(1500);
      byte[] values = new byte[count * Long.BYTES];
      long base = random.nextLong() >> 2;
      for (int index = 0; index < count; index++) {
        long bits = width == 0 ? 0 : random.nextLong() >>> (Long.SIZE - width);
        RunFormat.putLong(values, index * Long.BYTES, base + bits);
      }
      byte[] packed = new byte[PackedLongs.maxPackedBytes(count) + 3];
      int bytes = PackedLongs.pack(values, count, packed, 3);
      if (width > PackedLongs.MAX_WIDTH) {
        assertThat(bytes).as("width %d", width).isEqualTo(-1);
        continue;
      }
      byte[] unpacked = new byte[count * Long.BYTES];
      PackedLongs.unpack(packed, 3, bytes, count, unpacked);
      assertThat(unpacked).as("width %d", width).isEqualTo(values);
    }
  }

  @Test
  void extremeLongsComeBackAsWritten() throws IOException {
    Path file = directory.resolve("run");
    long[] extremes = {Long.MIN_VALUE, Long.MAX_VALUE, 0, -1, 1, Long.MIN_VALUE + 1};
    LongColumnRun run =
        writeOneLongColumn(
            file,
            (random, row) -> row % 2 == 0 ? extremes[random.nextInt(extremes.length)] : (long) row);

    assertThat(readAll(file, ONE_LONG)).isEqualTo(run.batches());
  }

  @Test
  void aFileCutShortIsReportedNotReadAsShort() throws IOException {
    Path file = directory.resolve("run");
    try (RunFileWriter writer = new RunFileWriter(create(file), SCHEMA);
        VectorSchemaRoot batch = batch(1024, new Random(3))) {
      writer.write(batch);
      writer.write(batch);
      writer.finish();
    }
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(Files.size(file) / 2);
    }
    try (RunDecompression decompression = new RunDecompression();
        RunFileReader reader = reader(file, decompression);
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      assertThatThrownBy(
              () -> {
                while (reader.next(root, allocator)) {
                  assertThat(root.getRowCount()).isEqualTo(1024);
                }
              })
          .isInstanceOf(EOFException.class)
          .hasMessageContaining(file.toString())
          .hasMessageContaining("ends");
    }
  }

  @Test
  void aDamagedBufferIsReportedNamingTheFile() throws IOException {
    Path file = directory.resolve("run");
    try (RunFileWriter writer = new RunFileWriter(create(file), SCHEMA);
        VectorSchemaRoot batch = batch(1024, new Random(4))) {
      writer.write(batch);
      writer.finish();
    }
    byte[] bytes = Files.readAllBytes(file);
    int header =
        RunFormat.headerBytes(RunFormat.vectorCount(SCHEMA), RunFormat.bufferKinds(SCHEMA).length);
    for (int index = header; index < header + 400; index++) {
      bytes[index] ^= 0x5a;
    }
    Files.write(file, bytes);
    try (RunDecompression decompression = new RunDecompression();
        RunFileReader reader = reader(file, decompression);
        VectorSchemaRoot root = VectorSchemaRoot.create(SCHEMA, allocator)) {
      assertThatThrownBy(() -> reader.next(root, allocator))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("Spill file " + file + " is damaged");
    }
  }

  private RunFileReader reader(Path file, RunDecompression decompression) throws IOException {
    return new RunFileReader(
        file, FileChannel.open(file, StandardOpenOption.READ), SCHEMA, decompression);
  }

  /** What a run of one string column held: its raw and stored bytes, its batches rendered. */
  private record OneColumnRun(long rawBytes, long storedBytes, List<String> batches) {}

  /** Writes 20 batches of 1,024 values of {@link #ONE_STRING} made by {@code value}. */
  private OneColumnRun writeOneColumn(Path file, Function<Random, String> value)
      throws IOException {
    long rawBytes = 0;
    List<String> batches = new ArrayList<>();
    Random random = new Random(7);
    try (RunFileWriter writer = new RunFileWriter(create(file), ONE_STRING);
        VectorSchemaRoot batch = VectorSchemaRoot.create(ONE_STRING, allocator)) {
      VarCharVector strings = (VarCharVector) batch.getVector(0);
      for (int round = 0; round < 20; round++) {
        strings.reset();
        for (int row = 0; row < 1024; row++) {
          strings.setSafe(row, value.apply(random).getBytes(StandardCharsets.UTF_8));
        }
        batch.setRowCount(1024);
        rawBytes += RowGather.bufferBytes(batch);
        batches.add(render(batch));
        writer.write(batch);
      }
      writer.finish();
      return new OneColumnRun(rawBytes, writer.storedBytes(), batches);
    }
  }

  /** What a run of one 64-bit column held: its raw and stored bytes, its batches rendered. */
  private record LongColumnRun(long rawBytes, long storedBytes, List<String> batches) {}

  /** Writes 20 batches of 1,024 values of {@link #ONE_LONG} made by {@code value} (null: null). */
  private LongColumnRun writeOneLongColumn(Path file, BiFunction<Random, Integer, Long> value)
      throws IOException {
    long rawBytes = 0;
    List<String> batches = new ArrayList<>();
    Random random = new Random(8);
    try (RunFileWriter writer = new RunFileWriter(create(file), ONE_LONG);
        VectorSchemaRoot batch = VectorSchemaRoot.create(ONE_LONG, allocator)) {
      BigIntVector longs = (BigIntVector) batch.getVector(0);
      for (int round = 0; round < 20; round++) {
        longs.reset();
        for (int row = 0; row < 1024; row++) {
          Long made = value.apply(random, row);
          if (made == null) {
            longs.setNull(row);
          } else {
            longs.setSafe(row, made);
          }
        }
        batch.setRowCount(1024);
        rawBytes += RowGather.bufferBytes(batch);
        batches.add(render(batch));
        writer.write(batch);
      }
      writer.finish();
      return new LongColumnRun(rawBytes, writer.storedBytes(), batches);
    }
  }

  /** What a run of one double column held: its raw and stored bytes, each row's bits per batch. */
  private record DoubleColumnRun(long rawBytes, long storedBytes, List<List<Long>> batches) {}

  /**
   * Writes 20 batches of 1,024 values of {@link #ONE_DOUBLE} made by {@code value} (null: null).
   */
  private DoubleColumnRun writeOneDoubleColumn(Path file, BiFunction<Random, Integer, Double> value)
      throws IOException {
    long rawBytes = 0;
    List<List<Long>> batches = new ArrayList<>();
    Random random = new Random(9);
    try (RunFileWriter writer = new RunFileWriter(create(file), ONE_DOUBLE);
        VectorSchemaRoot batch = VectorSchemaRoot.create(ONE_DOUBLE, allocator)) {
      Float8Vector doubles = (Float8Vector) batch.getVector(0);
      for (int round = 0; round < 20; round++) {
        doubles.reset();
        for (int row = 0; row < 1024; row++) {
          Double made = value.apply(random, row);
          if (made == null) {
            doubles.setNull(row);
          } else {
            doubles.setSafe(row, made);
          }
        }
        batch.setRowCount(1024);
        rawBytes += RowGather.bufferBytes(batch);
        batches.add(doubleBits(doubles));
        writer.write(batch);
      }
      writer.finish();
      return new DoubleColumnRun(rawBytes, writer.storedBytes(), batches);
    }
  }

  /** Each row's bits (null: null) of every batch of the one-double run in {@code file}. */
  private List<List<Long>> readDoubleBits(Path file) throws IOException {
    List<List<Long>> read = new ArrayList<>();
    try (RunDecompression decompression = new RunDecompression();
        RunFileReader reader =
            new RunFileReader(
                file, FileChannel.open(file, StandardOpenOption.READ), ONE_DOUBLE, decompression);
        VectorSchemaRoot root = VectorSchemaRoot.create(ONE_DOUBLE, allocator)) {
      while (reader.next(root, allocator)) {
        read.add(doubleBits((Float8Vector) root.getVector(0)));
      }
    }
    return read;
  }

  private static List<Long> doubleBits(Float8Vector doubles) {
    List<Long> bits = new ArrayList<>();
    for (int row = 0; row < doubles.getValueCount(); row++) {
      bits.add(
          doubles.isNull(row)
              ? null
              : Double.doubleToRawLongBits(
                  doubles.getDataBuffer().getDouble((long) row * Double.BYTES)));
    }
    return bits;
  }

  /** Every batch of the run in {@code file}, rendered. */
  private List<String> readAll(Path file, Schema schema) throws IOException {
    List<String> read = new ArrayList<>();
    try (RunDecompression decompression = new RunDecompression();
        RunFileReader reader =
            new RunFileReader(
                file, FileChannel.open(file, StandardOpenOption.READ), schema, decompression);
        VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
      while (reader.next(root, allocator)) {
        read.add(render(root));
      }
    }
    return read;
  }

  private VectorSchemaRoot batch(int rows, Random random) {
    VectorSchemaRoot batch = VectorSchemaRoot.create(SCHEMA, allocator);
    BigIntVector id = (BigIntVector) batch.getVector("id");
    VarCharVector hex = (VarCharVector) batch.getVector("hex");
    VarCharVector agent = (VarCharVector) batch.getVector("agent");
    VarBinaryVector bytes = (VarBinaryVector) batch.getVector("bytes");
    Float8Vector amount = (Float8Vector) batch.getVector("amount");
    BitVector flag = (BitVector) batch.getVector("flag");
    ListVector numbers = (ListVector) batch.getVector("numbers");
    UnionListWriter list = numbers.getWriter();
    for (int row = 0; row < rows; row++) {
      if (row % 13 == 5) {
        id.setNull(row);
        hex.setNull(row);
      } else {
        id.setSafe(row, random.nextLong() >>> random.nextInt(64));
        hex.setSafe(
            row,
            randomHex(random).substring(random.nextInt(8)).getBytes(StandardCharsets.US_ASCII));
      }
      if (row % 17 == 3) {
        agent.setNull(row);
      } else {
        agent.setSafe(
            row, AGENTS.get(random.nextInt(AGENTS.size())).getBytes(StandardCharsets.UTF_8));
      }
      byte[] value = new byte[row % 100 == 7 ? 300 : random.nextInt(40)];
      random.nextBytes(value);
      bytes.setSafe(row, value);
      amount.setSafe(row, random.nextInt(1_000_000) / 100.0);
      flag.setSafe(row, random.nextBoolean() ? 1 : 0);
      list.setPosition(row);
      list.startList();
      for (int element = 0; element < row % 4; element++) {
        list.writeInt(random.nextInt());
      }
      list.endList();
    }
    batch.setRowCount(rows);
    return batch;
  }

  /** Every value of {@code batch}, binaries in hex (their {@code toString} is an identity). */
  private static String render(VectorSchemaRoot batch) {
    StringBuilder rendered = new StringBuilder();
    for (int row = 0; row < batch.getRowCount(); row++) {
      for (FieldVector vector : batch.getFieldVectors()) {
        Object value = vector.getObject(row);
        rendered.append(value instanceof byte[] bytes ? HexFormat.of().formatHex(bytes) : value);
        rendered.append('\t');
      }
      rendered.append('\n');
    }
    return rendered.toString();
  }

  private static String randomHex(Random random) {
    byte[] bytes = new byte[16];
    random.nextBytes(bytes);
    return HexFormat.of().formatHex(bytes);
  }

  private static UncachedFileOutput create(Path file) throws IOException {
    return UncachedFileOutput.create(file, false);
  }
}
