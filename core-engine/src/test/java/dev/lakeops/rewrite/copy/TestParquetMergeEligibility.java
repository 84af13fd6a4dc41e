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
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.parquet.ParquetSchemaUtil;
import org.apache.iceberg.types.Types;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.schema.Type;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TestParquetMergeEligibility {
  private static final Schema EXPECTED =
      new Schema(
          required(1, "id", Types.LongType.get()),
          optional(2, "country", Types.StringType.get()),
          optional(
              3, "location", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

  private final ParquetMergeEligibility eligibility =
      new ParquetMergeEligibility(ParquetSchemaUtil.convert(EXPECTED, "table"));

  @TempDir File directory;

  @Test
  void acceptsFilesThatAgreeAndKeepsTheirSchema() {
    MergeEligibility result =
        eligibility.check(List.of(footer("a", EXPECTED), footer("b", EXPECTED)));

    assertThat(result.isEligible()).isTrue();
    assertThat(result.reasons()).isEmpty();
    assertThat(result.fallbackReason()).isEmpty();
    MergeLayout layout = result.layout().orElseThrow();
    assertThat(layout.outputSchema()).isEqualTo(ParquetSchemaUtil.convert(EXPECTED, "table"));
    assertThat(layout.inputs()).allMatch(MergeLayout.InputLayout::fitsUnchanged);
  }

  @Test
  void makesAColumnOptionalWhenSomeFilesHaveItRequiredAndOthersOptional() {
    Schema requiredCountry =
        new Schema(
            required(1, "id", Types.LongType.get()),
            required(2, "country", Types.StringType.get()),
            optional(
                3, "location", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

    MergeLayout mixed =
        eligibility
            .check(List.of(footer("required", requiredCountry), footer("optional", EXPECTED)))
            .layout()
            .orElseThrow();
    MergeLayout allRequired =
        eligibility
            .check(List.of(footer("a", requiredCountry), footer("b", requiredCountry)))
            .layout()
            .orElseThrow();

    assertThat(mixed.outputSchema().getType("country").getRepetition())
        .isEqualTo(Type.Repetition.OPTIONAL);
    assertThat(mixed.inputs().get(0).columnsGainingDefinitionLevels()).containsExactly(1);
    assertThat(mixed.inputs().get(1).fitsUnchanged()).isTrue();
    assertThat(allRequired.outputSchema().getType("country").getRepetition())
        .isEqualTo(Type.Repetition.REQUIRED);
    assertThat(allRequired.inputs()).allMatch(MergeLayout.InputLayout::fitsUnchanged);
  }

  @Test
  void namesRenamedColumnsAsTheTableDoes() {
    Schema oldNames =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "nation", Types.StringType.get()),
            optional(3, "place", Types.StructType.of(optional(4, "town", Types.StringType.get()))));

    MergeLayout layout =
        eligibility
            .check(List.of(footer("old", oldNames), footer("new", EXPECTED)))
            .layout()
            .orElseThrow();

    assertThat(layout.outputSchema()).isEqualTo(ParquetSchemaUtil.convert(EXPECTED, "table"));
    assertThat(layout.inputs().get(0).sameColumnPaths()).isFalse();
    assertThat(layout.inputs().get(1).sameColumnPaths()).isTrue();
  }

  @Test
  void refusesFilesOfDifferentPhysicalTypeNamingTheColumn() {
    Schema other =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "country", Types.IntegerType.get()),
            optional(
                3, "location", Types.StructType.of(optional(4, "city", Types.StringType.get()))));

    MergeEligibility result = eligibility.check(List.of(footer("a", EXPECTED), footer("b", other)));

    assertThat(result.isEligible()).isFalse();
    assertThat(result.fallbackReason()).isEqualTo(FallbackReasons.SCHEMAS_DIFFER);
    assertThat(result.reasons())
        .singleElement()
        .asString()
        .endsWith("b.parquet column 'country' has physical type INT32, the first input BINARY");
  }

  @Test
  void refusesDifferentFieldIdOfNestedColumn() {
    Schema other =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "country", Types.StringType.get()),
            optional(
                3, "location", Types.StructType.of(optional(40, "city", Types.StringType.get()))));

    MergeEligibility result = eligibility.check(List.of(footer("a", EXPECTED), footer("b", other)));

    assertThat(result.fallbackReason()).isEqualTo(FallbackReasons.SCHEMAS_DIFFER);
    assertThat(result.reasons())
        .singleElement()
        .asString()
        .endsWith("b.parquet column 'location.city' has field id 40 where the first input has 4");
  }

  @Test
  void refusesMissingColumnAndNestedNullabilityChange() {
    Schema fewer =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "country", Types.StringType.get()));
    Schema requiredCity =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "country", Types.StringType.get()),
            optional(
                3, "location", Types.StructType.of(required(4, "city", Types.StringType.get()))));

    MergeEligibility result =
        eligibility.check(
            List.of(
                footer("a", EXPECTED), footer("fewer", fewer), footer("required", requiredCity)));

    assertThat(result.fallbackReason()).isEqualTo(FallbackReasons.SCHEMAS_DIFFER);
    assertThat(result.reasons()).hasSize(2);
    assertThat(result.reasons().get(0))
        .endsWith("fewer.parquet column '<root>' has 2 fields, the first input 3");
    assertThat(result.reasons().get(1))
        .endsWith(
            "required.parquet column 'location.city' is REQUIRED, the first input has it OPTIONAL");
  }

  @Test
  void refusesColumnsTheTableDropped() {
    ParquetMergeEligibility afterDrop =
        new ParquetMergeEligibility(
            ParquetSchemaUtil.convert(
                new Schema(
                    required(1, "id", Types.LongType.get()),
                    optional(
                        3,
                        "location",
                        Types.StructType.of(optional(4, "city", Types.StringType.get())))),
                "table"));

    MergeEligibility result = afterDrop.check(List.of(footer("a", EXPECTED)));

    assertThat(result.fallbackReason()).isEqualTo(FallbackReasons.DROPPED_COLUMNS);
    assertThat(result.reasons())
        .singleElement()
        .asString()
        .endsWith("a.parquet column 'country' (field id 2) is no longer in the table");
  }

  @Test
  void acceptsFilesInAnyCodecAndRefusesNoInputs() {
    File snappy =
        ParquetTestFiles.write(
            new File(directory, "snappy.parquet"),
            EXPECTED,
            List.of(row(EXPECTED)),
            Map.of(TableProperties.PARQUET_COMPRESSION, "snappy"),
            WriterVersion.PARQUET_1_0);

    assertThat(
            eligibility
                .check(
                    List.of(
                        footer("a", EXPECTED),
                        new ParquetFooterReader().read(Files.localInput(snappy))))
                .isEligible())
        .isTrue();
    assertThat(eligibility.check(List.of()).reasons()).containsExactly("no input files");
    assertThat(eligibility.check(List.of()).fallbackReason()).isEqualTo(FallbackReasons.NO_FILES);
  }

  @Test
  void mergerThrowsWithTheReasonsAndWritesNothing() {
    Schema other =
        new Schema(
            required(1, "id", Types.LongType.get()),
            optional(2, "country", Types.IntegerType.get()),
            optional(
                3, "location", Types.StructType.of(optional(4, "city", Types.StringType.get()))));
    File output = new File(directory, "merged.parquet");
    ParquetFileMerger merger = ParquetFileMerger.forIcebergSchema(EXPECTED);

    assertThatThrownBy(
            () ->
                merger.merge(
                    List.of(
                        Files.localInput(write("a", EXPECTED)),
                        Files.localInput(write("b", other))),
                    Files.localOutput(output),
                    MergeSettings.defaults()))
        .isInstanceOf(MergeIneligibleException.class)
        .hasMessageStartingWith("Files cannot be merged by copying: input ")
        .hasMessageEndingWith(
            "b.parquet column 'country' has physical type INT32, the first input BINARY");
    assertThat(output).doesNotExist();
  }

  private InputFooter footer(String name, Schema schema) {
    return new ParquetFooterReader().read(Files.localInput(write(name, schema)));
  }

  private File write(String name, Schema schema) {
    return ParquetTestFiles.write(
        new File(directory, name + ".parquet"),
        schema,
        List.of(row(schema)),
        Map.of(),
        WriterVersion.PARQUET_1_0);
  }

  private static Record row(Schema schema) {
    Record row = GenericRecord.create(schema);
    row.setField(schema.columns().get(0).name(), 1L);
    Types.NestedField country = schema.findField(2);
    if (country != null) {
      row.setField(
          country.name(), country.type().typeId() == Types.StringType.get().typeId() ? "NL" : 31);
    }
    return row;
  }
}
