package dev.lakeops.rewrite.copy;

import static org.apache.iceberg.types.Types.NestedField.optional;
import static org.apache.iceberg.types.Types.NestedField.required;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Files;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestParquetMergeEligibility {
  private static final Schema EXPECTED = new Schema(
      required(1, "id", Types.LongType.get()),
      optional(2, "country", Types.StringType.get()),
      optional(3, "location", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

  private final ParquetMergeEligibility eligibility =
      new ParquetMergeEligibility(ParquetSchemaUtil.convert(EXPECTED, "table"), CompressionCodecName.ZSTD);

  @TempDir
  File directory;

  @Test
  void acceptsFilesOfTheExpectedSchemaAndCodec() {
    MergeEligibility result = eligibility.check(List.of(footer("a", EXPECTED), footer("b", EXPECTED)));

    assertThat(result.isEligible()).isTrue();
    assertThat(result.reasons()).isEmpty();
  }

  @Test
  void refusesDifferentPhysicalTypeNamingTheColumn() {
    Schema other = new Schema(
        required(1, "id", Types.LongType.get()),
        optional(2, "country", Types.IntegerType.get()),
        optional(3, "location", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

    MergeEligibility result = eligibility.check(List.of(footer("a", EXPECTED), footer("b", other)));

    assertThat(result.isEligible()).isFalse();
    assertThat(result.reasons()).singleElement().asString()
        .endsWith("b.parquet column 'country' has physical type INT32, expected BINARY");
  }

  @Test
  void refusesDifferentFieldIdOfNestedColumn() {
    Schema other = new Schema(
        required(1, "id", Types.LongType.get()),
        optional(2, "country", Types.StringType.get()),
        optional(3, "location", Types.StructType.of(optional(40, "city", Types.StringType.get()))));

    MergeEligibility result = eligibility.check(List.of(footer("a", other)));

    assertThat(result.reasons()).singleElement().asString()
        .endsWith("a.parquet column 'location.city' has field id 40, expected 4");
  }

  @Test
  void refusesMissingColumnAndOptionalityChange() {
    Schema fewer = new Schema(required(1, "id", Types.LongType.get()), optional(2, "country", Types.StringType.get()));
    Schema required = new Schema(
        required(1, "id", Types.LongType.get()),
        required(2, "country", Types.StringType.get()),
        optional(3, "location", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

    MergeEligibility result = eligibility.check(List.of(footer("fewer", fewer), footer("required", required)));

    assertThat(result.reasons()).hasSize(2);
    assertThat(result.reasons().get(0)).endsWith("fewer.parquet column '<root>' has 2 fields, expected 3");
    assertThat(result.reasons().get(1)).endsWith("required.parquet column 'country' is REQUIRED, expected OPTIONAL");
  }

  @Test
  void refusesOtherCodecAndNoInputs() {
    ParquetMergeEligibility snappyTarget =
        new ParquetMergeEligibility(ParquetSchemaUtil.convert(EXPECTED, "table"), CompressionCodecName.SNAPPY);

    assertThat(snappyTarget.check(List.of(footer("a", EXPECTED))).reasons())
        .first().asString().endsWith("a.parquet column 'id' is compressed with ZSTD, the target codec is SNAPPY");
    assertThat(eligibility.check(List.of()).reasons()).containsExactly("no input files");
  }

  @Test
  void mergerThrowsWithTheReasonsAndWritesNothing() {
    Schema other = new Schema(
        required(1, "id", Types.LongType.get()),
        optional(2, "country", Types.IntegerType.get()),
        optional(3, "location", Types.StructType.of(optional(4, "city", Types.StringType.get()))));
    File output = new File(directory, "merged.parquet");
    ParquetFileMerger merger = ParquetFileMerger.forIcebergSchema(EXPECTED);

    assertThatThrownBy(() -> merger.merge(
            List.of(Files.localInput(write("a", EXPECTED)), Files.localInput(write("b", other))),
            Files.localOutput(output),
            MergeSettings.defaults()))
        .isInstanceOf(MergeIneligibleException.class)
        .hasMessageStartingWith("Files cannot be merged by copying: input ")
        .hasMessageEndingWith("b.parquet column 'country' has physical type INT32, expected BINARY");
    assertThat(output).doesNotExist();
  }

  private InputFooter footer(String name, Schema schema) {
    return new ParquetFooterReader().read(Files.localInput(write(name, schema)));
  }

  private File write(String name, Schema schema) {
    Record row = GenericRecord.create(schema);
    row.setField("id", 1L);
    if (schema.findField("country").type().typeId() == Types.StringType.get().typeId()) {
      row.setField("country", "NL");
    }
    return ParquetTestFiles.write(
        new File(directory, name + ".parquet"), schema, List.of(row), Map.of(), WriterVersion.PARQUET_1_0);
  }
}
