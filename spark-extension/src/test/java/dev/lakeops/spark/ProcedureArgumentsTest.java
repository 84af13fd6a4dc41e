package dev.lakeops.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.Strategy;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.ArrayBasedMapData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.unsafe.types.UTF8String;
import org.junit.jupiter.api.Test;

class ProcedureArgumentsTest {
  private static final ProcedureParameter[] PARAMETERS = {
    CompactProcedure.TABLE,
    CompactProcedure.STRATEGY,
    CompactProcedure.ZORDER_BY,
    CompactProcedure.OPTIONS,
    CompactProcedure.DRY_RUN
  };

  @Test
  void readsEveryKindOfArgument() {
    ProcedureArguments arguments =
        arguments("cat.db.t", "SORT", " a, ,b ", map("min-input-files", "2"), true);

    assertThat(arguments.requiredString(CompactProcedure.TABLE)).isEqualTo("cat.db.t");
    assertThat(arguments.parsed(CompactProcedure.STRATEGY, Strategy::parse))
        .contains(Strategy.SORT);
    assertThat(arguments.list(CompactProcedure.ZORDER_BY)).containsExactly("a", "b");
    assertThat(arguments.map(CompactProcedure.OPTIONS)).isEqualTo(Map.of("min-input-files", "2"));
    assertThat(arguments.booleanValue(CompactProcedure.DRY_RUN)).isTrue();
  }

  @Test
  void nullsAndBlanksAreAbsent() {
    ProcedureArguments arguments = arguments(null, "  ", null, null, null);

    assertThat(arguments.parsed(CompactProcedure.STRATEGY, Strategy::parse)).isEmpty();
    assertThat(arguments.list(CompactProcedure.ZORDER_BY)).isEmpty();
    assertThat(arguments.map(CompactProcedure.OPTIONS)).isEmpty();
    assertThat(arguments.booleanValue(CompactProcedure.DRY_RUN)).isFalse();
    assertThatThrownBy(() -> arguments.requiredString(CompactProcedure.TABLE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Argument 'table' is required");
  }

  @Test
  void parseFailureNamesTheArgument() {
    ProcedureArguments arguments = arguments("t", "fastest", null, null, null);

    assertThatThrownBy(() -> arguments.parsed(CompactProcedure.STRATEGY, Strategy::parse))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Invalid argument strategy => 'fastest': Unknown strategy 'fastest': use one of binpack, sort, zorder, auto");
  }

  @Test
  void parameterOfAnotherProcedureIsABug() {
    ProcedureArguments arguments = arguments("t", null, null, null, null);

    assertThatThrownBy(() -> arguments.string(CompactProcedure.WHERE))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Not a parameter of this procedure: where");
  }

  private static ProcedureArguments arguments(
      String table, String strategy, String zorder, ArrayBasedMapData options, Boolean dryRun) {
    InternalRow row =
        new GenericInternalRow(
            new Object[] {utf8(table), utf8(strategy), utf8(zorder), options, dryRun});
    return new ProcedureArguments(PARAMETERS, row);
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
