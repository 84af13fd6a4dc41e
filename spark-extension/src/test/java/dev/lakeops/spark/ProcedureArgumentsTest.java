package dev.lakeops.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.Strategy;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class ProcedureArgumentsTest {
  private static final ProcedureParameter[] PARAMETERS = {
    SparkParameters.TABLE,
    ProcedureParameter.in("strategy", DataTypes.StringType).build(),
    ProcedureParameter.in("zorder_columns", DataTypes.createArrayType(DataTypes.StringType))
        .build(),
    ProcedureParameter.in("zorder_by", DataTypes.StringType).build(),
    ProcedureParameter.in(
            "options", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType))
        .build(),
    ProcedureParameter.in("dry_run", DataTypes.BooleanType).build()
  };

  @Test
  void readsEveryKindOfArgument() {
    ProcedureArguments arguments =
        arguments("cat.db.t", "SORT", array(" a", "b "), null, map("min-input-files", "2"), true);

    assertThat(arguments.requiredString("table")).isEqualTo("cat.db.t");
    assertThat(arguments.parsed("strategy", Strategy::parse)).contains(Strategy.SORT);
    assertThat(arguments.stringsOrCommaSeparated("zorder_columns", "zorder_by"))
        .containsExactly("a", "b");
    assertThat(arguments.map("options")).isEqualTo(Map.of("min-input-files", "2"));
    assertThat(arguments.booleanValue("dry_run")).isTrue();
  }

  @Test
  void deprecatedSpellingStillWorks() {
    ProcedureArguments arguments = arguments("t", null, null, " a, ,b ", null, null);

    assertThat(arguments.stringsOrCommaSeparated("zorder_columns", "zorder_by"))
        .containsExactly("a", "b");
  }

  @Test
  void bothSpellingsAtOnceAreRefused() {
    ProcedureArguments arguments = arguments("t", null, array("a"), "b", null, null);

    assertThatThrownBy(() -> arguments.stringsOrCommaSeparated("zorder_columns", "zorder_by"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Arguments 'zorder_columns' and 'zorder_by' are the same argument: pass only"
                + " zorder_columns (zorder_by is its deprecated spelling)");
  }

  @Test
  void nullListElementIsAnError() {
    ProcedureArguments arguments = arguments("t", null, array("a", null), null, null, null);

    assertThatThrownBy(() -> arguments.strings("zorder_columns"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Argument 'zorder_columns' has a NULL element at position 2: remove it or pass a value");
  }

  @Test
  void nullsAndBlanksAreAbsent() {
    ProcedureArguments arguments = arguments(null, "  ", null, null, null, null);

    assertThat(arguments.parsed("strategy", Strategy::parse)).isEmpty();
    assertThat(arguments.stringsOrCommaSeparated("zorder_columns", "zorder_by")).isEmpty();
    assertThat(arguments.map("options")).isEmpty();
    assertThat(arguments.booleanValue("dry_run")).isFalse();
    assertThatThrownBy(() -> arguments.requiredString("table"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Argument 'table' is required");
  }

  @Test
  void parseFailureNamesTheArgument() {
    ProcedureArguments arguments = arguments("t", "fastest", null, null, null, null);

    assertThatThrownBy(() -> arguments.parsed("strategy", Strategy::parse))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid argument strategy => 'fastest': Unknown strategy 'fastest': use one of binpack, sort, zorder, auto");
  }

  @Test
  void parameterOfAnotherProcedureIsABug() {
    ProcedureArguments arguments = arguments("t", null, null, null, null, null);

    assertThatThrownBy(() -> arguments.string("where"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Not a parameter of this procedure: where");
  }

  private static ProcedureArguments arguments(
      String table,
      String strategy,
      GenericArrayData zorderColumns,
      String zorderBy,
      ArrayBasedMapData options,
      Boolean dryRun) {
    InternalRow row =
        new GenericInternalRow(
            new Object[] {
              utf8(table), utf8(strategy), zorderColumns, utf8(zorderBy), options, dryRun
            });
    return new ProcedureArguments(PARAMETERS, row);
  }

  private static GenericArrayData array(String... items) {
    return new GenericArrayData(Arrays.stream(items).map(ProcedureArgumentsTest::utf8).toArray());
  }

  private static ArrayBasedMapData map(String key, String value) {
    return new ArrayBasedMapData(
        new GenericArrayData(List.of(utf8(key)).toArray()),
        new GenericArrayData(List.of(utf8(value)).toArray()));
  }

  private static UTF8String utf8(String text) {
    return text == null ? null : UTF8String.fromString(text);
  }
}
