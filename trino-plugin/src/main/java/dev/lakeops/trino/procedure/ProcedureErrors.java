package dev.lakeops.trino.procedure;

import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_COMMIT_CONFLICT;
import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_COMMIT_STATE_UNKNOWN;
import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_FILESYSTEM_ERROR;
import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_INVALID_ARGUMENT;
import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_OPERATION_FAILED;

import dev.lakeops.catalog.RootCause;
import dev.lakeops.rewrite.UnreadableDataFileException;
import io.trino.spi.TrinoException;
import io.trino.spi.connector.SchemaTableName;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.iceberg.exceptions.CommitFailedException;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.exceptions.RuntimeIOException;
import org.apache.iceberg.exceptions.ValidationException;

/**
 * Turns what the LakeOps core throws into {@link TrinoException}s carrying a LakeOps error code.
 */
final class ProcedureErrors {
  private ProcedureErrors() {}

  /** Parses arguments; the core's {@link IllegalArgumentException} names the value and the fix. */
  static <T> T parseArgument(Supplier<T> parser) {
    try {
      return parser.get();
    } catch (IllegalArgumentException e) {
      throw new TrinoException(LAKEOPS_INVALID_ARGUMENT, e.getMessage(), e);
    }
  }

  static <T> T required(T value, String argument) {
    if (value == null) {
      throw new TrinoException(LAKEOPS_INVALID_ARGUMENT, argument + " must not be null");
    }
    return value;
  }

  static TrinoException translate(String operation, SchemaTableName table, RuntimeException e) {
    if (e instanceof TrinoException trino) {
      return trino;
    }
    String prefix = operation + " of " + table + " failed: ";
    if (e instanceof IllegalArgumentException) {
      return new TrinoException(LAKEOPS_INVALID_ARGUMENT, e.getMessage(), e);
    }
    if (e instanceof CommitStateUnknownException) {
      return new TrinoException(
          LAKEOPS_COMMIT_STATE_UNKNOWN,
          prefix
              + "the commit outcome is unknown; written files were kept: "
              + RootCause.message(e),
          e);
    }
    if (e instanceof CommitFailedException || e instanceof ValidationException) {
      return new TrinoException(
          LAKEOPS_COMMIT_CONFLICT,
          prefix
              + "another writer changed the table; nothing was committed, run it again: "
              + RootCause.message(e),
          e);
    }
    Optional<UnreadableDataFileException> unreadable =
        causeOfType(e, UnreadableDataFileException.class);
    if (unreadable.isPresent()) {
      // its message names the file, the cause and the fix
      return new TrinoException(
          LAKEOPS_FILESYSTEM_ERROR, prefix + unreadable.get().getMessage(), e);
    }
    if (e instanceof UncheckedIOException
        || e instanceof RuntimeIOException
        || e instanceof NotFoundException) {
      return new TrinoException(LAKEOPS_FILESYSTEM_ERROR, prefix + RootCause.message(e), e);
    }
    return new TrinoException(LAKEOPS_OPERATION_FAILED, prefix + RootCause.message(e), e);
  }

  private static <T extends Throwable> Optional<T> causeOfType(Throwable failure, Class<T> type) {
    for (Throwable current = failure;
        current != null;
        current = current.getCause() == current ? null : current.getCause()) {
      if (type.isInstance(current)) {
        return Optional.of(type.cast(current));
      }
    }
    return Optional.empty();
  }
}
