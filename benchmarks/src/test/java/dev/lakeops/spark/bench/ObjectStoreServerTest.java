package dev.lakeops.spark.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileInfo;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The object-storage benchmark's S3 server, through Iceberg's real {@code S3FileIO}: requests are
 * counted by kind on the server, latency applies only while switched on, and server-side copies
 * keep the bytes without counting as requests.
 */
class ObjectStoreServerTest {
  private static final byte[] CONTENT = "twelve bytes".getBytes(StandardCharsets.UTF_8);

  @TempDir Path temp;
  private ObjectStoreServer server;
  private S3FileIO io;

  @BeforeEach
  void start() throws Exception {
    server = ObjectStoreServer.start(temp.resolve("blobs"), "lake");
    io = new S3FileIO();
    io.initialize(server.fileIoProperties());
  }

  @AfterEach
  void stop() throws Exception {
    io.close();
    server.close();
  }

  @Test
  void countsEachKindOfRequestOnTheServer() throws IOException {
    String location = server.location("table/data/one.bin");
    server.requests().reset();

    write(location);
    assertThat(read(location)).isEqualTo(CONTENT);
    assertThat(io.newInputFile(location).getLength()).isEqualTo(CONTENT.length);
    List<FileInfo> listed =
        StreamSupport.stream(io.listPrefix(server.location("table/")).spliterator(), false)
            .toList();
    io.deleteFile(location);

    RequestCounts counts = server.requests().snapshot();
    assertThat(listed).extracting(FileInfo::location).containsExactly(location);
    assertThat(counts.count(RequestKind.PUT)).isEqualTo(1);
    assertThat(counts.count(RequestKind.GET)).isEqualTo(1);
    assertThat(counts.count(RequestKind.HEAD)).isEqualTo(1);
    assertThat(counts.count(RequestKind.LIST)).isEqualTo(1);
    assertThat(counts.count(RequestKind.DELETE)).isEqualTo(1);
    assertThat(counts.total()).isEqualTo(5);
    assertThat(counts.peakInFlight()).isEqualTo(1);
    assertThat(counts.meanInFlight()).isBetween(0.0, 1.0);
  }

  @Test
  void resetStartsTheCountsAgain() throws IOException {
    String location = server.location("one.bin");
    write(location);
    server.requests().reset();

    RequestCounts counts = server.requests().snapshot();

    assertThat(counts.total()).isZero();
    assertThat(counts.peakInFlight()).isZero();
    assertThat(counts.meanInFlight()).isZero();
  }

  @Test
  void addsLatencyToEveryRequestOnlyWhileSwitchedOn() throws IOException {
    String location = server.location("one.bin");
    write(location);
    Duration latency = Duration.ofMillis(300);

    server.latency(latency);
    long slow = timeHead(location);
    server.latency(Duration.ZERO);
    long fast = timeHead(location);

    assertThat(Duration.ofNanos(slow)).isGreaterThanOrEqualTo(latency);
    assertThat(Duration.ofNanos(fast)).isLessThan(latency);
  }

  @Test
  void copiesObjectsOnTheServerSideWithoutCountingRequests() throws IOException {
    String from = server.location("source/data/one.bin");
    String to = server.location("copy/data/one.bin");
    write(from);
    server.requests().reset();

    server.copy(from, to);

    assertThat(server.requests().snapshot().total()).isZero();
    assertThat(read(to)).isEqualTo(CONTENT);
  }

  private long timeHead(String location) {
    long started = System.nanoTime();
    // a new input file asks the server for the length each time
    io.newInputFile(location).getLength();
    return System.nanoTime() - started;
  }

  private void write(String location) throws IOException {
    try (OutputStream stream = io.newOutputFile(location).createOrOverwrite()) {
      stream.write(CONTENT);
    }
  }

  private byte[] read(String location) throws IOException {
    try (InputStream stream = io.newInputFile(location).newStream()) {
      return stream.readAllBytes();
    }
  }
}
