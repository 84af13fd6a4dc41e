package dev.lakeops.rewrite.copy;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.FileMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Decides whether Parquet files can be merged by copying their pages into a file of the expected
 * schema. Conservative: anything it does not recognise as identical makes the files ineligible.
 */
public final class ParquetMergeEligibility {
  private final MessageType expectedSchema;
  private final CompressionCodecName targetCodec;

  /**
   * @param expectedSchema the output schema, e.g. {@code ParquetSchemaUtil.convert(schema,
   *     "table")}, with field ids
   * @param targetCodec the codec every input column chunk must already use
   */
  public ParquetMergeEligibility(MessageType expectedSchema, CompressionCodecName targetCodec) {
    this.expectedSchema = requireNonNull(expectedSchema, "expectedSchema is null");
    this.targetCodec = requireNonNull(targetCodec, "targetCodec is null");
  }

  public MergeEligibility check(List<InputFooter> inputs) {
    requireNonNull(inputs, "inputs is null");
    List<String> reasons = new ArrayList<>();
    if (inputs.isEmpty()) {
      reasons.add("no input files");
    }
    for (InputFooter input : inputs) {
      checkFile(input, reasons);
    }
    return new MergeEligibility(reasons);
  }

  private void checkFile(InputFooter input, List<String> reasons) {
    String file = "input " + input.location();
    ParquetMetadata footer = input.footer();
    FileMetaData fileMetaData = footer.getFileMetaData();
    if (fileMetaData.getEncryptionType() != FileMetaData.EncryptionType.UNENCRYPTED) {
      reasons.add(file + " is encrypted (" + fileMetaData.getEncryptionType() + ")");
      return;
    }
    int before = reasons.size();
    compareGroup(expectedSchema, fileMetaData.getSchema(), "", file, reasons);
    if (reasons.size() > before) {
      return;
    }
    List<ColumnDescriptor> columns = expectedSchema.getColumns();
    for (BlockMetaData block : footer.getBlocks()) {
      checkRowGroup(block, columns, file, reasons);
    }
  }

  private void checkRowGroup(
      BlockMetaData block, List<ColumnDescriptor> columns, String file, List<String> reasons) {
    if (block.getColumns().size() != columns.size()) {
      reasons.add(
          file + " row group " + block.getOrdinal() + " has " + block.getColumns().size()
              + " column chunks, expected " + columns.size());
      return;
    }
    for (int index = 0; index < columns.size(); index++) {
      ColumnChunkMetaData chunk = block.getColumns().get(index);
      String column = String.join(".", columns.get(index).getPath());
      if (!chunk.getPath().toDotString().equals(column)) {
        reasons.add(
            file + " row group " + block.getOrdinal() + " has column chunk '"
                + chunk.getPath().toDotString() + "' where column '" + column + "' is expected");
        return;
      }
      if (chunk.isEncrypted()) {
        reasons.add(file + " column '" + column + "' is encrypted");
      } else if (chunk.getCodec() != targetCodec) {
        reasons.add(
            file + " column '" + column + "' is compressed with " + chunk.getCodec()
                + ", the target codec is " + targetCodec);
      }
    }
  }

  private static void compareGroup(
      GroupType expected, GroupType actual, String prefix, String file, List<String> reasons) {
    if (expected.getFieldCount() != actual.getFieldCount()) {
      reasons.add(
          file + " column '" + describe(prefix) + "' has " + actual.getFieldCount()
              + " fields, expected " + expected.getFieldCount());
      return;
    }
    for (int index = 0; index < expected.getFieldCount(); index++) {
      compareType(expected.getType(index), actual.getType(index), prefix, file, reasons);
    }
  }

  private static void compareType(
      Type expected, Type actual, String prefix, String file, List<String> reasons) {
    String column = prefix + expected.getName();
    String subject = file + " column '" + column + "'";
    if (!expected.getName().equals(actual.getName())) {
      reasons.add(subject + " is named '" + prefix + actual.getName() + "' in the file");
      return;
    }
    if (expected.getRepetition() != actual.getRepetition()) {
      reasons.add(subject + " is " + actual.getRepetition() + ", expected " + expected.getRepetition());
      return;
    }
    if (!Objects.equals(expected.getId(), actual.getId())) {
      reasons.add(subject + " has field id " + actual.getId() + ", expected " + expected.getId());
      return;
    }
    if (expected.isPrimitive() != actual.isPrimitive()) {
      reasons.add(subject + (actual.isPrimitive() ? " is primitive" : " is a group") + " in the file");
      return;
    }
    if (expected.isPrimitive()) {
      int before = reasons.size();
      comparePrimitive(expected.asPrimitiveType(), actual.asPrimitiveType(), subject, reasons);
      if (reasons.size() > before) {
        return;
      }
    }
    if (!Objects.equals(expected.getLogicalTypeAnnotation(), actual.getLogicalTypeAnnotation())) {
      reasons.add(
          subject + " has logical type " + actual.getLogicalTypeAnnotation() + ", expected "
              + expected.getLogicalTypeAnnotation());
      return;
    }
    if (!expected.isPrimitive()) {
      compareGroup(expected.asGroupType(), actual.asGroupType(), column + ".", file, reasons);
    }
  }

  private static void comparePrimitive(
      PrimitiveType expected, PrimitiveType actual, String subject, List<String> reasons) {
    if (expected.getPrimitiveTypeName() != actual.getPrimitiveTypeName()) {
      reasons.add(
          subject + " has physical type " + actual.getPrimitiveTypeName() + ", expected "
              + expected.getPrimitiveTypeName());
    } else if (expected.getTypeLength() != actual.getTypeLength()) {
      reasons.add(
          subject + " has length " + actual.getTypeLength() + ", expected " + expected.getTypeLength());
    } else if (!Objects.equals(expected.columnOrder(), actual.columnOrder())) {
      reasons.add(
          subject + " has column order " + actual.columnOrder() + ", expected " + expected.columnOrder());
    }
  }

  private static String describe(String prefix) {
    return prefix.isEmpty() ? "<root>" : prefix.substring(0, prefix.length() - 1);
  }
}
