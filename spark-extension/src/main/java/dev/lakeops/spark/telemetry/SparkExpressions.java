package dev.lakeops.spark.telemetry;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Expression;
import scala.jdk.javaapi.CollectionConverters;

/** Small helpers over Catalyst expressions, from Java. */
final class SparkExpressions {
  private SparkExpressions() {}

  static Expression withoutCasts(Expression expression) {
    Expression current = expression;
    while (current instanceof Cast cast) {
      current = cast.child();
    }
    return current;
  }

  static List<Expression> conjuncts(Expression condition) {
    List<Expression> result = new ArrayList<>();
    if (condition instanceof And and) {
      result.addAll(conjuncts(and.left()));
      result.addAll(conjuncts(and.right()));
    } else {
      result.add(condition);
    }
    return result;
  }

  static List<Attribute> references(Expression expression) {
    return List.copyOf(CollectionConverters.asJava(expression.references().toSeq()));
  }

  static List<Expression> children(Expression expression) {
    return List.copyOf(CollectionConverters.asJava(expression.children()));
  }
}
