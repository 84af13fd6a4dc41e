package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.ColumnOrder;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Decides whether Parquet files can be merged by copying their pages, and into which schema. The
 * files must agree with each other, column by column matched by field id: same columns in the same
 * order, same physical and logical types. They need not match the table's write schema byte for
 * byte: writers (Spark, Trino, Flink, older Iceberg versions) differ in created_by, key-value
 * metadata, page versions, encodings and codecs, and may write a column required that the table has
 * optional. The output keeps the inputs' types, takes the table's current column names, and has a
 * top-level column optional when any input has it optional (required inputs then gain all-defined
 * definition levels page by page). On format v3 tables (a table schema with {@code _row_id} and
 * {@code _last_updated_sequence_number}) the output ends with both lineage columns as the table
 * schema has them; each input either stores them as its last two columns or not, and row groups
 * that do not (or store them all null) have them derived by the merge ({@link StoredLineage}).
 * Anything else makes the files ineligible, with a reason.
 */
public final class ParquetMergeEligibility {
  private final Map<Integer, String> tableNames;
  private final List<Type> lineageColumns;

  /**
   * @param tableSchema the table's write schema as Parquet, e.g. {@code
   *     ParquetSchemaUtil.convert(schema, "table")}, with field ids: it supplies column names and
   *     tells which columns the table still has
   */
  public ParquetMergeEligibility(MessageType tableSchema) {
    this.tableNames = new HashMap<>();
    collectNames(requireNonNull(tableSchema, "tableSchema is null"), tableNames);
    this.lineageColumns =
        tableSchema.getFields().stream().filter(LineageColumns::isLineage).toList();
  }

  public MergeEligibility check(List<InputFooter> inputs) {
    requireNonNull(inputs, "inputs is null");
    if (inputs.isEmpty()) {
      return MergeEligibility.ineligible(FallbackReasons.NO_FILES, List.of("no input files"));
    }
    for (String reason : List.of(FallbackReasons.ENCRYPTED, FallbackReasons.NO_FIELD_IDS)) {
      List<String> details = new ArrayList<>();
      for (InputFooter input : inputs) {
        checkFile(input, reason, details);
      }
      if (!details.isEmpty()) {
        return MergeEligibility.ineligible(reason, details);
      }
    }
    List<StoredLineage> lineage = new ArrayList<>(inputs.size());
    if (!lineageColumns.isEmpty()) {
      List<String> problems = new ArrayList<>();
      for (InputFooter input : inputs) {
        lineage.add(StoredLineage.of(input, problems));
      }
      if (!problems.isEmpty()) {
        return MergeEligibility.ineligible(FallbackReasons.LINEAGE_PARTLY_STORED, problems);
      }
    }
    MessageType reference = withoutLineage(inputs.get(0));
    List<String> differences = new ArrayList<>();
    for (InputFooter input : inputs.subList(1, inputs.size())) {
      compareGroup(
          reference, withoutLineage(input), true, "", "input " + input.location(), differences);
    }
    for (InputFooter input : inputs) {
      checkRowGroups(input, differences);
    }
    if (!differences.isEmpty()) {
      return MergeEligibility.ineligible(FallbackReasons.SCHEMAS_DIFFER, differences);
    }
    List<String> dropped = new ArrayList<>();
    findDropped(reference, "", "input " + inputs.get(0).location(), dropped);
    if (!dropped.isEmpty()) {
      return MergeEligibility.ineligible(FallbackReasons.DROPPED_COLUMNS, dropped);
    }
    Set<Integer> optionalIds = new HashSet<>();
    for (InputFooter input : inputs) {
      for (Type field : input.footer().getFileMetaData().getSchema().getFields()) {
        if (field.getRepetition() == Type.Repetition.OPTIONAL) {
          optionalIds.add(field.getId().intValue());
        }
      }
    }
    List<Type> outputFields = outputFields(reference, optionalIds);
    outputFields.addAll(lineageColumns);
    MessageType output = new MessageType("table", outputFields);
    List<MergeLayout.InputLayout> layouts = new ArrayList<>(inputs.size());
    for (int index = 0; index < inputs.size(); index++) {
      Map<Integer, Set<LineageColumns>> derived =
          lineage.isEmpty() ? Map.of() : lineage.get(index).derived();
      layouts.add(
          inputLayout(inputs.get(index).footer().getFileMetaData().getSchema(), output, derived));
    }
    return MergeEligibility.eligible(new MergeLayout(output, layouts));
  }

  /**
   * The input's schema without its row lineage columns, where the table has them: the merge writes
   * them from the table's schema, stored or derived.
   */
  private MessageType withoutLineage(InputFooter input) {
    MessageType schema = input.footer().getFileMetaData().getSchema();
    if (lineageColumns.isEmpty()) {
      return schema;
    }
    List<Type> fields =
        schema.getFields().stream().filter(field -> !LineageColumns.isLineage(field)).toList();
    return fields.size() == schema.getFieldCount()
        ? schema
        : new MessageType(schema.getName(), fields);
  }

  private static void checkFile(InputFooter input, String reason, List<String> details) {
    String file = "input " + input.location();
    ParquetMetadata footer = input.footer();
    FileMetaData fileMetaData = footer.getFileMetaData();
    if (reason.equals(FallbackReasons.ENCRYPTED)) {
      if (fileMetaData.getEncryptionType() != FileMetaData.EncryptionType.UNENCRYPTED) {
        details.add(file + " is encrypted (" + fileMetaData.getEncryptionType() + ")");
        return;
      }
      for (BlockMetaData block : footer.getBlocks()) {
        for (ColumnChunkMetaData chunk : block.getColumns()) {
          if (chunk.isEncrypted()) {
            details.add(file + " column '" + chunk.getPath().toDotString() + "' is encrypted");
            return;
          }
        }
      }
    } else {
      for (Type field : fileMetaData.getSchema().getFields()) {
        if (field.getId() == null) {
          details.add(file + " column '" + field.getName() + "' has no field id");
          return;
        }
      }
    }
  }

  private static void checkRowGroups(InputFooter input, List<String> differences) {
    List<ColumnDescriptor> schemaColumns =
        input.footer().getFileMetaData().getSchema().getColumns();
    List<String> expectedPaths =
        schemaColumns.stream().map(column -> String.join(".", column.getPath())).toList();
    int columns = schemaColumns.size();
    for (BlockMetaData block : input.footer().getBlocks()) {
      if (block.getColumns().size() != columns) {
        differences.add(
            "input "
                + input.location()
                + " row group "
                + block.getOrdinal()
                + " has "
                + block.getColumns().size()
                + " column chunks, its schema "
                + columns
                + " columns");
        return;
      }
      for (int index = 0; index < columns; index++) {
        String expected = expectedPaths.get(index);
        String actual = block.getColumns().get(index).getPath().toDotString();
        if (!expected.equals(actual)) {
          differences.add(
              "input "
                  + input.location()
                  + " row group "
                  + block.getOrdinal()
                  + " has column chunk '"
                  + actual
                  + "' where its schema has '"
                  + expected
                  + "'");
          return;
        }
      }
    }
  }

  private static void compareGroup(
      GroupType expected,
      GroupType actual,
      boolean topLevel,
      String prefix,
      String file,
      List<String> differences) {
    if (expected.getFieldCount() != actual.getFieldCount()) {
      differences.add(
          file
              + " column '"
              + describe(prefix)
              + "' has "
              + actual.getFieldCount()
              + " fields, the first input "
              + expected.getFieldCount());
      return;
    }
    for (int index = 0; index < expected.getFieldCount(); index++) {
      compareType(
          expected.getType(index), actual.getType(index), topLevel, prefix, file, differences);
    }
  }

  private static void compareType(
      Type expected,
      Type actual,
      boolean topLevel,
      String prefix,
      String file,
      List<String> differences) {
    String column = prefix + expected.getName();
    String subject = file + " column '" + column + "'";
    if (!Objects.equals(expected.getId(), actual.getId())) {
      differences.add(
          subject
              + " has field id "
              + actual.getId()
              + " where the first input has "
              + expected.getId());
      return;
    }
    if (expected.getId() == null && !expected.getName().equals(actual.getName())) {
      differences.add(subject + " is named '" + actual.getName() + "' and has no field id");
      return;
    }
    boolean nullabilityMayDiffer =
        topLevel
            && expected.isPrimitive()
            && actual.isPrimitive()
            && expected.getRepetition() != Type.Repetition.REPEATED
            && actual.getRepetition() != Type.Repetition.REPEATED;
    if (expected.getRepetition() != actual.getRepetition() && !nullabilityMayDiffer) {
      differences.add(
          subject
              + " is "
              + actual.getRepetition()
              + ", the first input has it "
              + expected.getRepetition());
      return;
    }
    if (expected.isPrimitive() != actual.isPrimitive()) {
      differences.add(
          subject
              + (actual.isPrimitive() ? " is primitive" : " is a group")
              + ", unlike the first input");
      return;
    }
    if (expected.isPrimitive()) {
      PrimitiveType expectedPrimitive = expected.asPrimitiveType();
      PrimitiveType actualPrimitive = actual.asPrimitiveType();
      if (expectedPrimitive.getPrimitiveTypeName() != actualPrimitive.getPrimitiveTypeName()
          || expectedPrimitive.getTypeLength() != actualPrimitive.getTypeLength()) {
        differences.add(
            subject
                + " has physical type "
                + describe(actualPrimitive)
                + ", the first input "
                + describe(expectedPrimitive));
        return;
      }
      if (!Objects.equals(expectedPrimitive.columnOrder(), actualPrimitive.columnOrder())) {
        differences.add(
            subject
                + " has column order "
                + actualPrimitive.columnOrder()
                + ", the first input "
                + expectedPrimitive.columnOrder());
        return;
      }
    }
    if (!Objects.equals(expected.getLogicalTypeAnnotation(), actual.getLogicalTypeAnnotation())) {
      differences.add(
          subject
              + " has logical type "
              + actual.getLogicalTypeAnnotation()
              + ", the first input "
              + expected.getLogicalTypeAnnotation());
      return;
    }
    if (!expected.isPrimitive()) {
      compareGroup(
          expected.asGroupType(), actual.asGroupType(), false, column + ".", file, differences);
    }
  }

  private void findDropped(GroupType group, String prefix, String file, List<String> dropped) {
    for (Type field : group.getFields()) {
      if (field.getId() != null && !tableNames.containsKey(field.getId().intValue())) {
        dropped.add(
            file
                + " column '"
                + prefix
                + field.getName()
                + "' (field id "
                + field.getId()
                + ") is no longer in the table");
      } else if (!field.isPrimitive()) {
        findDropped(field.asGroupType(), prefix + field.getName() + ".", file, dropped);
      }
    }
  }

  private List<Type> outputFields(GroupType group, Set<Integer> optionalTopLevelIds) {
    List<Type> fields = new ArrayList<>(group.getFieldCount());
    for (Type field : group.getFields()) {
      String name =
          field.getId() == null ? field.getName() : tableNames.get(field.getId().intValue());
      if (field.isPrimitive()) {
        PrimitiveType primitive = field.asPrimitiveType();
        Type.Repetition repetition =
            optionalTopLevelIds.contains(idOf(field))
                ? Type.Repetition.OPTIONAL
                : field.getRepetition();
        fields.add(rename(primitive, repetition, name));
      } else {
        GroupType nested = field.asGroupType();
        Types.GroupBuilder<GroupType> builder =
            Types.buildGroup(nested.getRepetition())
                .as(nested.getLogicalTypeAnnotation())
                .addFields(outputFields(nested, Set.of()).toArray(new Type[0]));
        if (nested.getId() != null) {
          builder = builder.id(nested.getId().intValue());
        }
        fields.add(builder.named(name));
      }
    }
    return fields;
  }

  private static int idOf(Type field) {
    return field.getId() == null ? Integer.MIN_VALUE : field.getId().intValue();
  }

  private static PrimitiveType rename(PrimitiveType type, Type.Repetition repetition, String name) {
    Types.PrimitiveBuilder<PrimitiveType> builder =
        Types.primitive(type.getPrimitiveTypeName(), repetition)
            .as(type.getLogicalTypeAnnotation());
    if (type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
      builder = builder.length(type.getTypeLength());
    }
    ColumnOrder order = type.columnOrder();
    if (order != null) {
      builder = builder.columnOrder(order);
    }
    if (type.getId() != null) {
      builder = builder.id(type.getId().intValue());
    }
    return builder.named(name);
  }

  private static MergeLayout.InputLayout inputLayout(
      MessageType input, MessageType output, Map<Integer, Set<LineageColumns>> derivedLineage) {
    boolean samePaths = true;
    Set<Integer> gaining = new HashSet<>();
    // getColumns() builds a new list of new descriptors on every call: once per schema
    List<ColumnDescriptor> inputColumns = input.getColumns();
    List<ColumnDescriptor> outputColumns = output.getColumns();
    // an input without stored lineage lacks the output's last (lineage) columns: they are derived
    int columns = Math.min(inputColumns.size(), outputColumns.size());
    for (int index = 0; index < columns; index++) {
      samePaths &=
          Arrays.equals(inputColumns.get(index).getPath(), outputColumns.get(index).getPath());
      if (inputColumns.get(index).getMaxDefinitionLevel()
          < outputColumns.get(index).getMaxDefinitionLevel()) {
        gaining.add(index);
      }
    }
    return new MergeLayout.InputLayout(samePaths, gaining, derivedLineage);
  }

  private static void collectNames(GroupType group, Map<Integer, String> names) {
    for (Type field : group.getFields()) {
      if (field.getId() != null) {
        names.put(field.getId().intValue(), field.getName());
      }
      if (!field.isPrimitive()) {
        collectNames(field.asGroupType(), names);
      }
    }
  }

  private static String describe(PrimitiveType type) {
    return type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
        ? "FIXED_LEN_BYTE_ARRAY(" + type.getTypeLength() + ")"
        : type.getPrimitiveTypeName().toString();
  }

  private static String describe(String prefix) {
    return prefix.isEmpty() ? "<root>" : prefix.substring(0, prefix.length() - 1);
  }
}
