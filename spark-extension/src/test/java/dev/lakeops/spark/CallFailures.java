package dev.lakeops.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.apache.spark.sql.SparkSession;

/** A {@code CALL} that fails: the user reads one line naming what is wrong. */
final class CallFailures {
  private CallFailures() {}

  /** The call fails, and its root message (the first IllegalArgumentException) is one line. */
  static void assertCallFails(SparkSession spark, String call, String message) {
    assertThatThrownBy(() -> spark.sql(call).collectAsList())
        .satisfies(error -> assertThat(rootMessage(error)).contains(message).doesNotContain("\n"));
  }

  private static String rootMessage(Throwable error) {
    Throwable current = error;
    while (current.getCause() != null && !(current instanceof IllegalArgumentException)) {
      current = current.getCause();
    }
    return current.getMessage();
  }
}
