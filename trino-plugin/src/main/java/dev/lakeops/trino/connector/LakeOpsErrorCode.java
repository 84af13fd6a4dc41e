package dev.lakeops.trino.connector;

import static io.trino.spi.ErrorType.EXTERNAL;
import static io.trino.spi.ErrorType.INTERNAL_ERROR;
import static io.trino.spi.ErrorType.USER_ERROR;

import io.trino.spi.ErrorCode;
import io.trino.spi.ErrorCodeSupplier;
import io.trino.spi.ErrorType;

/** Error codes of the LakeOps plugin; every failure a procedure reports carries one. */
public enum LakeOpsErrorCode implements ErrorCodeSupplier {
  /**
   * An argument has a value the procedure cannot use (bad strategy, unknown option, bad filter).
   */
  LAKEOPS_INVALID_ARGUMENT(0, USER_ERROR),
  /** The schema or table does not exist in the Iceberg catalog the connector serves. */
  LAKEOPS_TABLE_NOT_FOUND(1, USER_ERROR),
  /** The Iceberg catalog could not be reached or answered with an error. */
  LAKEOPS_CATALOG_ERROR(2, EXTERNAL),
  /** Another writer committed first; nothing of this run was committed. */
  LAKEOPS_COMMIT_CONFLICT(3, EXTERNAL),
  /** The commit outcome is unknown; written files were kept because they may be committed. */
  LAKEOPS_COMMIT_STATE_UNKNOWN(4, EXTERNAL),
  /** Reading or writing table files failed. */
  LAKEOPS_FILESYSTEM_ERROR(5, EXTERNAL),
  /** The operation failed for a reason not covered above. */
  LAKEOPS_OPERATION_FAILED(6, INTERNAL_ERROR),
  /** The connector's catalog configuration is invalid. */
  LAKEOPS_INVALID_CONFIGURATION(7, USER_ERROR);

  /** Trino error codes are global; LakeOps takes a range of its own. */
  private static final int BASE = 0x0A1A_0000;

  private final ErrorCode errorCode;

  LakeOpsErrorCode(int code, ErrorType type) {
    this.errorCode = new ErrorCode(BASE + code, name(), type);
  }

  @Override
  public ErrorCode toErrorCode() {
    return errorCode;
  }
}
