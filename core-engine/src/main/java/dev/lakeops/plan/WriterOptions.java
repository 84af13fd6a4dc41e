package dev.lakeops.plan;

import static dev.lakeops.option.OptionCheck.positive;

import dev.lakeops.option.OptionType;
import dev.lakeops.option.OptionValues;
import dev.lakeops.option.RewriteOption;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The rewrite options that decide how the new files are written.
 *
 * @param rewriteCodec see {@link #REWRITE_CODEC}
 * @param rowGroupSizeBytes see {@link #ROW_GROUP_SIZE_BYTES}; empty for the table's own setting
 */
public record WriterOptions(boolean rewriteCodec, OptionalLong rowGroupSizeBytes) {

  /**
   * LakeOps only: make the decode-free merge write every page in the table's current {@code
   * write.parquet.compression-codec}. By default, files written before the codec changed keep their
   * codec: their row groups are copied as they are, and only a column chunk merged from inputs in
   * several codecs is recompressed (values are never decoded either way).
   */
  public static final RewriteOption<Boolean> REWRITE_CODEC =
      RewriteOption.of(
              "rewrite-codec",
              OptionType.BOOLEAN,
              "recompress copied pages in the table's current compression codec")
          .withDefault(false);

  /**
   * LakeOps only: the Parquet row-group size of the files a sort or z-order writes, e.g. {@code
   * 16777216}. Smaller row groups of sorted data let readers skip more of each file by row-group
   * statistics ({@code --strategy auto} sets it, see docs/advisor.md). Binpack keeps row groups as
   * they are.
   */
  public static final RewriteOption<Long> ROW_GROUP_SIZE_BYTES =
      RewriteOption.of(
              "row-group-size-bytes",
              OptionType.LONG,
              "Parquet row-group size of the files a sort or z-order writes")
          .withoutDefault("the table's write.parquet.row-group-size-bytes")
          .mustSatisfy(positive());

  /**
   * Iceberg's {@code output-spec-id} (write the new files in that partition spec) is not offered:
   * LakeOps writes each file group in its input files' partition spec.
   */
  public static final String OUTPUT_SPEC_ID = "output-spec-id";

  /** Options Iceberg has that LakeOps cannot honour, each with the one-line reason given. */
  public static final Map<String, String> UNSUPPORTED =
      Map.of(
          OUTPUT_SPEC_ID,
          "Rewrite option '"
              + OUTPUT_SPEC_ID
              + "' is not supported: LakeOps writes each file group in its input files' partition"
              + " spec; remove the option, or use Iceberg's rewrite_data_files to move files to"
              + " another spec");

  /** The options of this group, in the order the docs list them. */
  public static final List<RewriteOption<?>> OPTIONS = List.of(REWRITE_CODEC, ROW_GROUP_SIZE_BYTES);

  public WriterOptions {
    rowGroupSizeBytes.ifPresent(ROW_GROUP_SIZE_BYTES::checked);
  }

  /** Reads this group from {@code values}. */
  public static WriterOptions parse(OptionValues values) {
    return new WriterOptions(
        values.value(REWRITE_CODEC),
        values.given(ROW_GROUP_SIZE_BYTES).map(OptionalLong::of).orElseGet(OptionalLong::empty));
  }
}
