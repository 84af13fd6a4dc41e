package dev.lakeops.telemetry.recorder;

import static dev.lakeops.telemetry.event.TelemetryEvents.NOW;
import static dev.lakeops.telemetry.event.TelemetryEvents.ORDERS;
import static dev.lakeops.telemetry.event.TelemetryEvents.event;
import static dev.lakeops.telemetry.event.TelemetryEvents.filterEvent;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.ScanVolume;
import dev.lakeops.telemetry.event.TelemetryEvent;
import dev.lakeops.telemetry.store.TelemetryStore;
import dev.lakeops.telemetry.store.TelemetryStoreFactory;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TelemetryRecorderTest {
  private static final RecorderOptions NO_RETENTION =
      RecorderOptions.defaults()
          .withFlushInterval(Duration.ofMillis(20))
          .withRetention(Optional.empty());

  @TempDir Path directory;

  @Test
  void writesEveryEventFromManyThreadsAndFlushesOnClose() throws Exception {
    String configuration = "sqlite:" + directory.resolve("telemetry.db");
    TelemetryRecorder recorder =
        TelemetryRecorder.open(configuration, NO_RETENTION.withMaximumBatchSize(50));
    ExecutorService executor = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> hosts =
          List.of(
              executor.submit(() -> recordMany(recorder, 250)),
              executor.submit(() -> recordMany(recorder, 250)),
              executor.submit(() -> recordMany(recorder, 250)),
              executor.submit(() -> recordMany(recorder, 250)));
      for (Future<?> host : hosts) {
        host.get(1, TimeUnit.MINUTES);
      }
    } finally {
      executor.shutdownNow();
    }
    recorder.close();
    recorder.close();

    assertThat(recorder.droppedEventCount()).isZero();
    assertThat(recorder.failedEventCount()).isZero();
    assertThat(recorder.writtenEventCount()).isEqualTo(1000);
    try (TelemetryStore store = TelemetryStoreFactory.open(configuration)) {
      assertThat(store.countEvents()).isEqualTo(1000);
    }
  }

  @Test
  void dropsAndCountsEventsWhenTheQueueIsFull() throws Exception {
    BlockingTelemetryStore store = BlockingTelemetryStore.blockingFirstAppend();
    TelemetryRecorder recorder =
        TelemetryRecorder.start(store, NO_RETENTION.withQueueCapacity(10), Clock.systemUTC());

    assertThat(recorder.record(userIdFilter())).isTrue();
    store.awaitFirstAppend();
    int accepted = 0;
    for (int index = 0; index < 25; index++) {
      if (recorder.record(userIdFilter())) {
        accepted++;
      }
    }

    assertThat(accepted).isEqualTo(10);
    assertThat(recorder.droppedEventCount()).isEqualTo(15);
    assertThat(recorder.queuedEventCount()).isEqualTo(10);
    store.release();
    recorder.close();
    assertThat(store.appended()).hasSize(11);
    assertThat(recorder.writtenEventCount()).isEqualTo(11);
    assertThat(store.closed()).isTrue();
  }

  @Test
  void countsEventsTheStoreFailedToWriteAndKeepsGoing() throws Exception {
    BlockingTelemetryStore store = BlockingTelemetryStore.failingFirstAppends(1);
    TelemetryRecorder recorder = TelemetryRecorder.start(store, NO_RETENTION, Clock.systemUTC());

    recorder.record(userIdFilter());
    assertThat(recorder.flush(Duration.ofSeconds(30))).isTrue();
    assertThat(recorder.failedEventCount()).isEqualTo(1);
    recorder.record(userIdFilter());
    recorder.close();

    assertThat(recorder.failedEventCount()).isEqualTo(1);
    assertThat(recorder.writtenEventCount()).isEqualTo(1);
    assertThat(store.appended()).hasSize(1);
  }

  @Test
  void flushWaitsUntilEveryAcceptedEventIsWritten() throws Exception {
    BlockingTelemetryStore store = BlockingTelemetryStore.blockingFirstAppend();
    TelemetryRecorder recorder = TelemetryRecorder.start(store, NO_RETENTION, Clock.systemUTC());

    recorder.record(userIdFilter());
    store.awaitFirstAppend();
    recorder.record(userIdFilter());
    assertThat(recorder.flush(Duration.ofMillis(50))).as("the store still blocks").isFalse();
    store.release();

    assertThat(recorder.flush(Duration.ofSeconds(30))).isTrue();
    assertThat(store.appended()).hasSize(2);
    assertThat(store.closed()).isFalse();
    recorder.close();
  }

  @Test
  void dropsEventsRecordedAfterClose() {
    TelemetryRecorder recorder =
        TelemetryRecorder.start(
            BlockingTelemetryStore.failingFirstAppends(0), NO_RETENTION, Clock.systemUTC());
    recorder.close();

    assertThat(recorder.record(userIdFilter())).isFalse();
    assertThat(recorder.droppedEventCount()).isEqualTo(1);
  }

  @Test
  void appliesRetentionInTheBackground() {
    String configuration = "sqlite:" + directory.resolve("retention.db");
    try (TelemetryStore store = TelemetryStoreFactory.open(configuration)) {
      store.append(
          List.of(
              event(ORDERS, NOW.minus(Duration.ofDays(31)), ScanVolume.unknown()),
              event(ORDERS, NOW.minus(Duration.ofDays(29)), ScanVolume.unknown())));
    }
    RecorderOptions options = NO_RETENTION.withRetention(Optional.of(Duration.ofDays(30)));

    TelemetryRecorder.start(
            TelemetryStoreFactory.open(configuration), options, Clock.fixed(NOW, ZoneOffset.UTC))
        .close();

    try (TelemetryStore store = TelemetryStoreFactory.open(configuration)) {
      assertThat(store.countEvents()).isEqualTo(1);
    }
  }

  @Test
  void rejectsNonPositiveOptionsNamingThem() {
    assertThatThrownBy(() -> RecorderOptions.defaults().withQueueCapacity(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Recorder option queueCapacity must be positive: 0");
    assertThatThrownBy(() -> RecorderOptions.defaults().withRetention(Optional.of(Duration.ZERO)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Recorder option retention must be positive: PT0S");
  }

  private static void recordMany(TelemetryRecorder recorder, int count) {
    for (int index = 0; index < count; index++) {
      if (!recorder.record(userIdFilter())) {
        throw new AssertionError("dropped an event with a queue of 10,000");
      }
    }
  }

  private static TelemetryEvent userIdFilter() {
    return filterEvent(ORDERS, "user_id", PredicateKind.EQUALITY);
  }
}
