package dev.lakeops.rewrite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.arrow.memory.OutOfMemoryException;
import org.junit.jupiter.api.Test;

class UnreadableDataFileExceptionTest {
  @Test
  void aFileThatFailsToReadIsNamedWithTheFix() {
    RuntimeException failure =
        UnreadableDataFileException.wrapIfRead(
            "file:/warehouse/db/events/data/00001.parquet",
            new UncheckedIOException(new IOException("not a Parquet file")));

    assertThat(failure)
        .isInstanceOf(UnreadableDataFileException.class)
        .hasMessage(
            "Cannot read data file file:/warehouse/db/events/data/00001.parquet (not a Parquet"
                + " file); the table is unchanged — restore the file, or remove it from the table"
                + " before compacting");
  }

  @Test
  void theBudgetRefusingABufferIsNotBlamedOnTheFile() {
    OutOfMemoryException refused = new OutOfMemoryException("Unable to allocate buffer");

    RuntimeException failure =
        UnreadableDataFileException.wrapIfRead(
            "file:/warehouse/db/events/data/00001.parquet",
            new IllegalStateException("decoding failed", refused));

    assertThat(failure).isSameAs(refused);
  }
}
