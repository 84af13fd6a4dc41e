package dev.lakeops.expression;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;

/**
 * Parses a SQL-like row filter ({@code where}) into an Iceberg expression. Supports comparisons
 * ({@code = != <> < <= > >=}), {@code IN (...)}, {@code NOT IN}, {@code IS [NOT] NULL}, {@code LIKE
 * 'prefix%'}, {@code AND}, {@code OR}, {@code NOT} and parentheses. String literals are bound to
 * the column type by Iceberg, so {@code day = '2024-01-01'} works on a date column.
 */
public final class WhereParser {
  private final List<String> tokens;
  private final String text;
  private int position;

  private WhereParser(String text) {
    this.text = text;
    this.tokens = WhereTokenizer.tokenize(text);
  }

  public static Expression parse(String text) {
    if (text == null || text.isBlank()) {
      return Expressions.alwaysTrue();
    }
    WhereParser parser = new WhereParser(text);
    Expression expression = parser.orExpression();
    if (parser.position < parser.tokens.size()) {
      throw parser.error("unexpected '" + parser.tokens.get(parser.position) + "'");
    }
    return expression;
  }

  private Expression orExpression() {
    Expression left = andExpression();
    while (acceptKeyword("OR")) {
      left = Expressions.or(left, andExpression());
    }
    return left;
  }

  private Expression andExpression() {
    Expression left = unary();
    while (acceptKeyword("AND")) {
      left = Expressions.and(left, unary());
    }
    return left;
  }

  private Expression unary() {
    if (acceptKeyword("NOT")) {
      return Expressions.not(unary());
    }
    if (accept("(")) {
      Expression inner = orExpression();
      expect(")");
      return inner;
    }
    return predicate();
  }

  private Expression predicate() {
    String column = identifier();
    if (acceptKeyword("IS")) {
      boolean negated = acceptKeyword("NOT");
      expectKeyword("NULL");
      return negated ? Expressions.notNull(column) : Expressions.isNull(column);
    }
    boolean negated = acceptKeyword("NOT");
    if (acceptKeyword("IN")) {
      expect("(");
      List<Object> values = new ArrayList<>();
      do {
        values.add(literal());
      } while (accept(","));
      expect(")");
      return negated ? Expressions.notIn(column, values) : Expressions.in(column, values);
    }
    if (acceptKeyword("LIKE")) {
      Object pattern = literal();
      if (!(pattern instanceof String prefix)
          || !prefix.endsWith("%")
          || prefix.substring(0, prefix.length() - 1).contains("%")
          || prefix.contains("_")) {
        throw error("LIKE supports only prefix patterns such as 'abc%'");
      }
      String start = prefix.substring(0, prefix.length() - 1);
      return negated
          ? Expressions.notStartsWith(column, start)
          : Expressions.startsWith(column, start);
    }
    if (negated) {
      throw error("expected IN or LIKE after NOT");
    }
    String operator = next("a comparison operator");
    Object value = literal();
    return switch (operator) {
      case "=" -> Expressions.equal(column, value);
      case "!=", "<>" -> Expressions.notEqual(column, value);
      case "<" -> Expressions.lessThan(column, value);
      case "<=" -> Expressions.lessThanOrEqual(column, value);
      case ">" -> Expressions.greaterThan(column, value);
      case ">=" -> Expressions.greaterThanOrEqual(column, value);
      default -> throw error("unknown operator '" + operator + "'");
    };
  }

  private String identifier() {
    String token = next("a column name");
    if (token.startsWith("'")
        || !Character.isLetter(token.charAt(0))
            && token.charAt(0) != '_'
            && token.charAt(0) != '"'
            && token.charAt(0) != '`') {
      throw error("expected a column name but found '" + token + "'");
    }
    if (token.startsWith("\"") || token.startsWith("`")) {
      return token.substring(1, token.length() - 1);
    }
    return token;
  }

  private Object literal() {
    String token = next("a value");
    if (token.startsWith("'")) {
      return token.substring(1, token.length() - 1).replace("''", "'");
    }
    String upper = token.toUpperCase(Locale.ROOT);
    if (upper.equals("TRUE") || upper.equals("FALSE")) {
      return Boolean.parseBoolean(upper.toLowerCase(Locale.ROOT));
    }
    try {
      if (token.contains(".") || token.contains("e") || token.contains("E")) {
        return new BigDecimal(token).doubleValue();
      }
      return Long.parseLong(token);
    } catch (NumberFormatException e) {
      throw error("expected a value but found '" + token + "'");
    }
  }

  private boolean acceptKeyword(String keyword) {
    if (position < tokens.size() && tokens.get(position).equalsIgnoreCase(keyword)) {
      position++;
      return true;
    }
    return false;
  }

  private void expectKeyword(String keyword) {
    if (!acceptKeyword(keyword)) {
      throw error("expected " + keyword);
    }
  }

  private boolean accept(String symbol) {
    if (position < tokens.size() && tokens.get(position).equals(symbol)) {
      position++;
      return true;
    }
    return false;
  }

  private void expect(String symbol) {
    if (!accept(symbol)) {
      throw error("expected '" + symbol + "'");
    }
  }

  private String next(String expected) {
    if (position >= tokens.size()) {
      throw error("expected " + expected + " at the end");
    }
    return tokens.get(position++);
  }

  private IllegalArgumentException error(String problem) {
    return new IllegalArgumentException(
        "Invalid where filter \""
            + text
            + "\": "
            + problem
            + " (example: \"day >= '2024-01-01' AND country IN ('NL', 'BE')\")");
  }
}
