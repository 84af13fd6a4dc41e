package dev.lakeops.spark.telemetry;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.TableIdentity;
import dev.lakeops.telemetry.event.TableName;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.ExprId;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.NamedExpression;
import org.apache.spark.sql.catalyst.expressions.SortOrder;
import org.apache.spark.sql.catalyst.plans.logical.Aggregate;
import org.apache.spark.sql.catalyst.plans.logical.Filter;
import org.apache.spark.sql.catalyst.plans.logical.Join;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.Project;
import org.apache.spark.sql.catalyst.plans.logical.Sort;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2ScanRelation;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Walks an optimized logical plan, subqueries included, and finds every use of an Iceberg table's
 * columns: filters ({@code Filter} nodes, single-side join conditions, and filters Iceberg took
 * over in the scan), join keys, grouping keys, global sort keys, and the columns read.
 */
final class PlanColumnUses {
  private final ColumnLineage lineage = new ColumnLineage();
  private final Map<TableName, Set<String>> readColumns = new LinkedHashMap<>();
  private final Map<TableName, Long> scannedRows = new LinkedHashMap<>();
  private final Map<TableName, TableIdentity> identities = new LinkedHashMap<>();
  private final List<LogicalPlan> nodes = new ArrayList<>();
  private final List<ColumnUse> uses = new ArrayList<>();

  private PlanColumnUses() {}

  /** Every column use in {@code plan}, and per table the columns it read (for projections). */
  static PlanColumnUses of(LogicalPlan plan) {
    PlanColumnUses result = new PlanColumnUses();
    result.index(plan);
    FilterPredicates filters = new FilterPredicates(result.lineage);
    for (LogicalPlan node : result.nodes) {
      result.collect(node, filters);
    }
    return result;
  }

  Map<TableName, Set<String>> readColumns() {
    return readColumns;
  }

  List<ColumnUse> uses() {
    return uses;
  }

  /** Per table, its UUID and location when the relation's Iceberg table shows them. */
  Map<TableName, TableIdentity> identities() {
    return identities;
  }

  /**
   * Per table, the rows of the files its scans planned to read (after partition and file pruning).
   */
  Map<TableName, Long> scannedRows() {
    return scannedRows;
  }

  /**
   * Iceberg's scan statistics: the record count of the planned files, which Iceberg has already
   * computed (and keeps) by the time the query ran.
   */
  private static OptionalLong plannedRows(Scan scan) {
    if (!(scan instanceof SupportsReportStatistics statistics)) {
      return OptionalLong.empty();
    }
    try {
      return statistics.estimateStatistics().numRows();
    } catch (RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /** First pass: every node, every Iceberg relation's columns and every alias of a column. */
  private void index(LogicalPlan node) {
    nodes.add(node);
    if (node instanceof DataSourceV2ScanRelation scan) {
      IcebergRelations.tableName(scan.relation())
          .ifPresent(
              table -> {
                addRelation(scan.relation(), table, CollectionConverters.asJava(scan.output()));
                uses.addAll(IcebergScanFilters.uses(scan.scan(), table));
                plannedRows(scan.scan())
                    .ifPresent(rows -> scannedRows.merge(table, rows, Long::sum));
              });
    } else if (node instanceof DataSourceV2Relation relation) {
      IcebergRelations.tableName(relation)
          .ifPresent(
              table ->
                  addRelation(relation, table, CollectionConverters.asJava(relation.output())));
    } else if (node instanceof Project project) {
      CollectionConverters.asJava(project.projectList()).forEach(lineage::addProjection);
    } else if (node instanceof Aggregate aggregate) {
      for (NamedExpression named : CollectionConverters.asJava(aggregate.aggregateExpressions())) {
        lineage.addProjection(named);
      }
    }
    CollectionConverters.asJava(node.children()).forEach(this::index);
    CollectionConverters.asJava(node.subqueries()).forEach(this::index);
  }

  private void addRelation(
      DataSourceV2Relation relation, TableName table, Iterable<? extends Attribute> read) {
    for (Attribute attribute : CollectionConverters.asJava(relation.output())) {
      lineage.addColumn(attribute, table);
    }
    TableIdentity identity = IcebergRelations.identity(relation);
    if (identity.isKnown()) {
      identities.putIfAbsent(table, identity);
    }
    Set<String> columns = readColumns.computeIfAbsent(table, key -> new LinkedHashSet<>());
    for (Attribute attribute : read) {
      lineage.addColumn(attribute, table);
      columns.add(attribute.name());
    }
  }

  private void collect(LogicalPlan node, FilterPredicates filters) {
    if (node instanceof Filter filter) {
      uses.addAll(filters.uses(filter.condition()));
    } else if (node instanceof Join join && join.condition().isDefined()) {
      collectJoin(join, filters);
    } else if (node instanceof Aggregate aggregate) {
      for (Expression grouping : CollectionConverters.asJava(aggregate.groupingExpressions())) {
        addAll(grouping, Clause.GROUP_BY);
      }
    } else if (node instanceof Sort sort && sort.global()) {
      for (SortOrder order : CollectionConverters.asJava(sort.order())) {
        addAll(order, Clause.ORDER_BY);
      }
    }
  }

  /** Conditions over both sides are join keys; a condition over one side is a filter. */
  private void collectJoin(Join join, FilterPredicates filters) {
    Set<ExprId> left = exprIds(CollectionConverters.asJava(join.left().output()));
    Set<ExprId> right = exprIds(CollectionConverters.asJava(join.right().output()));
    for (Expression conjunct : SparkExpressions.conjuncts(join.condition().get())) {
      Set<ExprId> references = exprIds(SparkExpressions.references(conjunct));
      boolean touchesLeft = references.stream().anyMatch(left::contains);
      boolean touchesRight = references.stream().anyMatch(right::contains);
      if (touchesLeft && touchesRight) {
        addAll(conjunct, Clause.JOIN_KEY);
      } else {
        uses.addAll(filters.uses(conjunct));
      }
    }
  }

  /** Attribute ids: attributes that differ only in qualifier or nullability are the same column. */
  private static Set<ExprId> exprIds(Iterable<? extends Attribute> attributes) {
    Set<ExprId> ids = new HashSet<>();
    attributes.forEach(attribute -> ids.add(attribute.exprId()));
    return ids;
  }

  private void addAll(Expression expression, Clause clause) {
    for (Attribute attribute : SparkExpressions.references(expression)) {
      Optional<TableColumn> column = lineage.column(attribute);
      column.ifPresent(value -> uses.add(ColumnUse.of(value, clause)));
    }
  }
}
