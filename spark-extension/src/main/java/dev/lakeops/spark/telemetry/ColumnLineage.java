package dev.lakeops.spark.telemetry;

import dev.lakeops.telemetry.event.TableName;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.expressions.Alias;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;

/**
 * Which table column a plan attribute stands for. Relation outputs are columns; an alias of a plain
 * attribute ({@code id AS key}) stands for the same column as that attribute, through any number of
 * projections and aggregations. Attribute ids are unique within a plan, so one map serves the whole
 * plan, subqueries included.
 */
final class ColumnLineage {
  private final Map<ExprId, TableColumn> columns = new HashMap<>();
  private final Map<ExprId, ExprId> aliases = new HashMap<>();

  void addColumn(Attribute attribute, TableName table) {
    columns.put(attribute.exprId(), new TableColumn(table, attribute.name()));
  }

  /** Records {@code named} when it is an alias of a plain attribute. */
  void addProjection(NamedExpression named) {
    if (named instanceof Alias alias && alias.child() instanceof Attribute source) {
      aliases.put(alias.exprId(), source.exprId());
    }
  }

  Optional<TableColumn> column(Attribute attribute) {
    ExprId current = attribute.exprId();
    Set<ExprId> seen = new HashSet<>();
    while (seen.add(current)) {
      TableColumn column = columns.get(current);
      if (column != null) {
        return Optional.of(column);
      }
      ExprId next = aliases.get(current);
      if (next == null) {
        return Optional.empty();
      }
      current = next;
    }
    return Optional.empty();
  }

  /** The column {@code expression} reads when it is an attribute, possibly cast. */
  Optional<TableColumn> plainColumn(Expression expression) {
    Expression current = SparkExpressions.withoutCasts(expression);
    return current instanceof Attribute attribute ? column(attribute) : Optional.empty();
  }
}
