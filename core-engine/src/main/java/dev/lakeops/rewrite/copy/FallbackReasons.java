package dev.lakeops.rewrite.copy;

/**
 * The reasons a binpack group is decoded instead of merged without decoding, as reported in {@code
 * fallback_reasons} (reason → groups). They read after a group count: "2 delete files".
 */
public final class FallbackReasons {
  /**
   * The group has equality deletes to apply (position deletes and deletion vectors do not decode).
   */
  public static final String EQUALITY_DELETES = "equality deletes";

  /** The group has position deletes, and the table has repeated columns (lists or maps). */
  public static final String DELETES_WITH_REPEATED_COLUMNS = "deletes with repeated columns";

  /**
   * The group has position deletes, and some page holding deleted rows is in an encoding whose
   * values cannot be left out without decoding (DELTA_BINARY_PACKED, DELTA_BYTE_ARRAY,
   * BYTE_STREAM_SPLIT, RLE booleans).
   */
  public static final String UNFILTERABLE_ENCODINGS = "deletes in encodings that decode";

  /** Some file of the group is not Parquet (Avro or ORC). */
  public static final String NOT_PARQUET = "not Parquet";

  /**
   * Format v3 tables: some file stores row lineage ({@code _row_id}, {@code
   * _last_updated_sequence_number}) for some rows of a row group and not others, without null
   * counts, or in another place or type than Iceberg writes it. Such files are decoded on their
   * own, and the group's other files merged where they agree with each other.
   */
  public static final String LINEAGE_PARTLY_STORED = "row lineage partly stored";

  /** The user turned the merge off with {@code decode-free-merge=false}. */
  public static final String TURNED_OFF = "decode-free-merge off";

  /**
   * The user asked for {@code --verify checksum}: the merge copies pages without decoding values,
   * so there is nothing to hash; the group is decoded, hashed as read and as written.
   */
  public static final String CHECKSUM_VERIFICATION = "checksum verification";

  /** Some file or column is encrypted. */
  public static final String ENCRYPTED = "encrypted files";

  /** Some file has top-level columns without Parquet field ids (files added by name mapping). */
  public static final String NO_FIELD_IDS = "no field ids";

  /** Some file holds a column that is no longer in the table. */
  public static final String DROPPED_COLUMNS = "dropped columns";

  /**
   * The files do not agree with each other: another set or order of columns, another physical or
   * logical type (a promoted column), or another nullability inside a nested column.
   */
  public static final String SCHEMAS_DIFFER = "schemas differ between files";

  /** A group without files (not expected from the planner). */
  public static final String NO_FILES = "no input files";

  private FallbackReasons() {}
}
