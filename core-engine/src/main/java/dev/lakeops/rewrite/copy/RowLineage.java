package dev.lakeops.rewrite.copy;

/**
 * The row lineage a data file's rows inherit where the file does not store it (format v3): row
 * {@code p} of the file has {@code _row_id} {@code firstRowId + p} and {@code
 * _last_updated_sequence_number} {@code sequenceNumber}.
 *
 * @param firstRowId the data file's {@code first_row_id}; null when the file has none: its rows
 *     then have no lineage, and both columns are written null (as on the decoding path)
 * @param sequenceNumber the data file's sequence number, as Iceberg's readers take it (the file
 *     sequence number); null when unknown
 */
public record RowLineage(Long firstRowId, Long sequenceNumber) {
  /** Lineage of a file without first row id: null ids and sequence numbers. */
  public static final RowLineage NONE = new RowLineage(null, null);

  /** The lineage of the rows from position {@code position} of the file on. */
  RowLineage startingAt(long position) {
    return firstRowId == null ? NONE : new RowLineage(firstRowId + position, sequenceNumber);
  }

  /** The {@code _row_id} of the row at {@code position} from the start, null without ids. */
  Long rowId(long position) {
    return firstRowId == null ? null : firstRowId + position;
  }

  /** The {@code _last_updated_sequence_number} rows inherit, null without ids. */
  Long lastUpdatedSequenceNumber() {
    return firstRowId == null ? null : sequenceNumber;
  }
}
