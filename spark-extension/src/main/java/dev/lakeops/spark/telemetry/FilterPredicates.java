package dev.lakeops.spark.telemetry;

import static java.util.Objects.requireNonNull;

import dev.lakeops.telemetry.event.PredicateKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.BinaryComparison;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.InSet;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.IsNull;
import org.apache.spark.sql.catalyst.expressions.Like;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.catalyst.expressions.StartsWith;
import scala.jdk.javaapi.CollectionConverters;

/**
 * The table columns a filter predicate tests, each with its {@link PredicateKind} when the
 * predicate compares a plain (possibly cast) column with constants: {@code =} equality, {@code <},
 * {@code <=}, {@code >}, {@code >=} range, {@code IN} in-list, {@code IS [NOT] NULL}, {@code LIKE
 * 'prefix%'} / {@code startswith}. Columns inside other expressions count with an unknown kind.
 */
final class FilterPredicates {
  private final ColumnLineage lineage;

  FilterPredicates(ColumnLineage lineage) {
    this.lineage = requireNonNull(lineage, "lineage is null");
  }

  List<ColumnUse> uses(Expression predicate) {
    List<ColumnUse> uses = new ArrayList<>();
    collect(predicate, uses);
    return uses;
  }

  private void collect(Expression predicate, List<ColumnUse> uses) {
    if (predicate instanceof And || predicate instanceof Or) {
      SparkExpressions.children(predicate).forEach(child -> collect(child, uses));
      return;
    }
    if (predicate instanceof IsNotNull isNotNull) {
      Optional<TableColumn> column = lineage.plainColumn(isNotNull.child());
      if (column.isPresent()) {
        uses.add(ColumnUse.notNullFilter(column.get()));
        return;
      }
    }
    Optional<Known> known = known(predicate);
    if (known.isPresent()) {
      uses.add(ColumnUse.filter(known.get().column(), Optional.of(known.get().kind())));
      return;
    }
    for (Attribute attribute : SparkExpressions.references(predicate)) {
      lineage
          .column(attribute)
          .ifPresent(column -> uses.add(ColumnUse.filter(column, Optional.empty())));
    }
  }

  private Optional<Known> known(Expression predicate) {
    if (predicate instanceof Not) {
      return Optional.empty();
    }
    if (predicate instanceof BinaryComparison comparison) {
      PredicateKind kind =
          comparison instanceof EqualTo || comparison instanceof EqualNullSafe
              ? PredicateKind.EQUALITY
              : PredicateKind.RANGE;
      if (comparison.right().foldable()) {
        return known(comparison.left(), kind);
      }
      if (comparison.left().foldable()) {
        return known(comparison.right(), kind);
      }
      return Optional.empty();
    }
    if (predicate instanceof In in
        && CollectionConverters.asJava(in.list()).stream().allMatch(Expression::foldable)) {
      return known(in.value(), PredicateKind.IN_LIST);
    }
    if (predicate instanceof InSet inSet) {
      return known(inSet.child(), PredicateKind.IN_LIST);
    }
    if (predicate instanceof IsNull isNull) {
      return known(isNull.child(), PredicateKind.IS_NULL);
    }
    if (predicate instanceof StartsWith startsWith && startsWith.right().foldable()) {
      return known(startsWith.left(), PredicateKind.LIKE_PREFIX);
    }
    if (predicate instanceof Like like && isPrefixPattern(like.right())) {
      return known(like.left(), PredicateKind.LIKE_PREFIX);
    }
    return Optional.empty();
  }

  private Optional<Known> known(Expression side, PredicateKind kind) {
    return lineage.plainColumn(side).map(column -> new Known(column, kind));
  }

  private static boolean isPrefixPattern(Expression pattern) {
    if (!(pattern instanceof Literal literal) || literal.value() == null) {
      return false;
    }
    String text = literal.value().toString();
    int wildcard = text.indexOf('%');
    return wildcard > 0 && wildcard == text.length() - 1 && text.indexOf('_') < 0;
  }

  private record Known(TableColumn column, PredicateKind kind) {}
}
