package dev.lakeops.cost;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.ledger.ObjectRequests;
import dev.lakeops.ledger.RunCost;
import dev.lakeops.testing.S3TestServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.FileInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The process's meter seen through windows while Iceberg's {@code S3FileIO} talks to a real S3 API
 * server that answers every request after {@value #LATENCY_MILLIS} ms: the SDK finds the
 * interceptor on the class path by itself, nothing here registers it.
 */
class ObjectRequestMeterTest {
  private static final long LATENCY_MILLIS = 300;

  @TempDir static Path directory;
  private static S3TestServer server;
  private static S3FileIO io;
  private final ObjectRequestMeter meter = ObjectRequestMeter.process();

  @BeforeAll
  static void startServer() throws Exception {
    server = S3TestServer.start(directory, "lake", Duration.ofMillis(LATENCY_MILLIS));
    io = new S3FileIO();
    io.initialize(server.fileIoProperties());
  }

  @AfterAll
  static void stopServer() throws Exception {
    io.close();
    server.close();
  }

  @Test
  void countsEachRequestUnderItsKindWithTheObjectBytesItCarried() throws Exception {
    Map<String, Long> servedBefore = server.requests().counts();
    RequestWindow window = meter.open();
    write("kinds/a.bin", 1_000);
    write("kinds/b.bin", 2_000);
    long length = io.newInputFile(server.location("kinds/a.bin")).getLength();
    byte[] read;
    try (InputStream in = io.newInputFile(server.location("kinds/a.bin")).newStream()) {
      read = in.readAllBytes();
    }
    List<String> listed = new ArrayList<>();
    for (FileInfo file : io.listPrefix(server.location("kinds/"))) {
      listed.add(file.location());
    }
    io.deleteFile(server.location("kinds/a.bin"));
    io.deleteFiles(List.of(server.location("kinds/b.bin")));
    RunCost cost = window.close();
    Map<String, Long> servedAfter = server.requests().counts();

    assertThat(length).isEqualTo(1_000);
    assertThat(read).hasSize(1_000);
    assertThat(listed).hasSize(2);
    assertThat(cost.requests()).isEqualTo(new ObjectRequests(1, 2, 1, 1, 2, 0));
    // what the server counted: the same requests of each kind
    assertThat(served(servedBefore, servedAfter))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("GET", 1L, "PUT", 2L, "HEAD", 1L, "LIST", 1L, "DELETE", 2L));
    assertThat(cost.bytesWritten()).isEqualTo(3_000);
    assertThat(cost.bytesRead()).isEqualTo(1_000);
    assertThat(cost.inFlightPeak()).isEqualTo(1);
    // one request at a time, each at least the server's latency, with time between them
    assertThat(cost.inFlightMean()).isGreaterThan(0.5).isLessThanOrEqualTo(1.0);
    assertThat(cost.cpuSeconds()).isPositive();
    assertThat(window.close()).as("closing twice").isSameAs(cost);
  }

  @Test
  void overlappingWindowsEachSeeEveryRequestWhileTheyWereOpenAndTheirOwnPeak() throws Exception {
    write("flight/object.bin", 10);
    int concurrent = 4;
    RequestWindow whole = meter.open();
    ExecutorService threads = Executors.newFixedThreadPool(concurrent);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Long>> lengths = new ArrayList<>();
      for (int thread = 0; thread < concurrent; thread++) {
        lengths.add(
            threads.submit(
                () -> {
                  start.await();
                  return io.newInputFile(server.location("flight/object.bin")).getLength();
                }));
      }
      start.countDown();
      for (Future<Long> length : lengths) {
        assertThat(length.get()).isEqualTo(10);
      }
    } finally {
      threads.shutdown();
    }
    RequestWindow later = meter.open();
    long length = io.newInputFile(server.location("flight/object.bin")).getLength();
    RunCost laterCost = later.close();
    RunCost wholeCost = whole.close();
    RunCost idle = meter.open().close();

    assertThat(length).isEqualTo(10);
    assertThat(wholeCost.requests()).isEqualTo(new ObjectRequests(0, 0, 5, 0, 0, 0));
    assertThat(wholeCost.inFlightPeak()).isEqualTo(concurrent);
    // four requests of >= 300 ms side by side, then one alone: well above one on average
    assertThat(wholeCost.inFlightMean()).isGreaterThan(1.5).isLessThan(concurrent);
    assertThat(laterCost.requests()).isEqualTo(new ObjectRequests(0, 0, 1, 0, 0, 0));
    assertThat(laterCost.inFlightPeak()).isEqualTo(1);
    assertThat(laterCost.inFlightMean()).isGreaterThan(0.5).isLessThanOrEqualTo(1.0);
    assertThat(idle.requests()).isEqualTo(ObjectRequests.NONE);
    assertThat(idle.inFlightPeak()).isZero();
    assertThat(idle.inFlightMean()).isZero();
    assertThat(meter.inFlight()).isZero();
  }

  @Test
  void aRequestRefusedByTheServerStillCountsAndLeavesNothingInFlight() {
    RequestWindow window = meter.open();
    boolean exists = io.newInputFile(server.location("missing/none.bin")).exists();
    RunCost cost = window.close();

    assertThat(exists).isFalse();
    assertThat(cost.requests().head()).isEqualTo(1);
    assertThat(cost.bytesRead()).isZero();
    assertThat(meter.inFlight()).isZero();
  }

  @Test
  void kindsComeFromTheOperationNameThenTheHttpMethod() {
    assertThat(RequestKind.of("UploadPart", "PUT")).isEqualTo(RequestKind.PUT);
    assertThat(RequestKind.of("CreateMultipartUpload", "POST")).isEqualTo(RequestKind.PUT);
    assertThat(RequestKind.of("CompleteMultipartUpload", "POST")).isEqualTo(RequestKind.PUT);
    assertThat(RequestKind.of("DeleteObjects", "POST")).isEqualTo(RequestKind.DELETE);
    assertThat(RequestKind.of("ListObjectsV2", "GET")).isEqualTo(RequestKind.LIST);
    assertThat(RequestKind.of("GetObjectTagging", "GET")).isEqualTo(RequestKind.GET);
    assertThat(RequestKind.of("RestoreObject", "POST")).isEqualTo(RequestKind.OTHER);
    assertThat(RequestKind.of(null, "HEAD")).isEqualTo(RequestKind.HEAD);
    assertThat(RequestKind.of(null, null)).isEqualTo(RequestKind.OTHER);
  }

  private static Map<String, Long> served(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> served = new TreeMap<>();
    after.forEach((call, count) -> served.put(call, count - before.getOrDefault(call, 0L)));
    return served;
  }

  private static void write(String path, int bytes) throws IOException {
    try (OutputStream out = io.newOutputFile(server.location(path)).createOrOverwrite()) {
      out.write(new byte[bytes]);
    }
  }
}
