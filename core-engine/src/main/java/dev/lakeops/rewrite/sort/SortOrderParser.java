package dev.lakeops.rewrite.sort;

import static java.util.Objects.requireNonNull;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.apache.iceberg.NullOrder;
import org.apache.iceberg.Schema;
import org.apache.iceberg.SortOrder;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.Term;
import org.apache.iceberg.types.Types;

/**
 * Parses Iceberg's sort-order syntax, as Spark's {@code WRITE ORDERED BY} takes it, into a {@link
 * SortOrder}: comma-separated fields, each a column or a transform of one, then an optional {@code
 * ASC}/{@code DESC} and {@code NULLS FIRST}/{@code NULLS LAST}, e.g. {@code "country ASC NULLS
 * FIRST, bucket(16, user_id), day(ts) DESC"}. Direction defaults to ascending; nulls default to
 * first when ascending and last when descending, as in Iceberg. Errors are one line starting {@code
 * Invalid sort order '<text>': } and name the problem.
 */
public final class SortOrderParser {
  private final Schema schema;
  private final String text;

  private SortOrderParser(Schema schema, String text) {
    this.schema = schema;
    this.text = text;
  }

  public static SortOrder parse(Schema schema, String text) {
    requireNonNull(schema, "schema is null");
    requireNonNull(text, "text is null");
    return new SortOrderParser(schema, text).parse();
  }

  private SortOrder parse() {
    if (text.isBlank()) {
      throw invalid("it is empty; give at least one column, e.g. \"country ASC NULLS FIRST\"");
    }
    SortOrder.Builder builder = SortOrder.builderFor(schema);
    for (String field : splitFields()) {
      addField(builder, field.trim());
    }
    try {
      return builder.build();
    } catch (ValidationException | IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }

  private List<String> splitFields() {
    List<String> fields = new ArrayList<>();
    int depth = 0;
    int start = 0;
    for (int index = 0; index < text.length(); index++) {
      char character = text.charAt(index);
      if (character == '(') {
        depth++;
      } else if (character == ')') {
        depth--;
        if (depth < 0) {
          throw invalid("unbalanced ')' at position " + (index + 1));
        }
      } else if (character == ',' && depth == 0) {
        fields.add(text.substring(start, index));
        start = index + 1;
      }
    }
    if (depth != 0) {
      throw invalid("missing ')'");
    }
    fields.add(text.substring(start));
    for (String field : fields) {
      if (field.isBlank()) {
        throw invalid("empty sort field between commas");
      }
    }
    return fields;
  }

  private void addField(SortOrder.Builder builder, String field) {
    int close = field.lastIndexOf(')');
    String termText;
    String rest;
    if (close >= 0) {
      termText = field.substring(0, close + 1).trim();
      rest = field.substring(close + 1).trim();
    } else {
      String[] words = field.split("\\s+", 2);
      termText = words[0];
      rest = words.length > 1 ? words[1].trim() : "";
    }
    Term term = term(termText);
    List<String> words =
        rest.isEmpty() ? List.of() : List.of(rest.toUpperCase(Locale.ROOT).split("\\s+"));
    boolean descending = false;
    int position = 0;
    if (position < words.size() && (words.get(0).equals("ASC") || words.get(0).equals("DESC"))) {
      descending = words.get(0).equals("DESC");
      position++;
    }
    NullOrder nullOrder = descending ? NullOrder.NULLS_LAST : NullOrder.NULLS_FIRST;
    if (position < words.size() && words.get(position).equals("NULLS")) {
      if (position + 1 >= words.size()) {
        throw invalid("expected FIRST or LAST after NULLS in '" + field + "'");
      }
      String which = words.get(position + 1);
      if (!which.equals("FIRST") && !which.equals("LAST")) {
        throw invalid(
            "expected FIRST or LAST after NULLS in '" + field + "' but found '" + which + "'");
      }
      nullOrder = which.equals("FIRST") ? NullOrder.NULLS_FIRST : NullOrder.NULLS_LAST;
      position += 2;
    }
    if (position < words.size()) {
      throw invalid(
          "unexpected '"
              + words.get(position)
              + "' in '"
              + field
              + "'; a field is a column or transform, then ASC or DESC, then NULLS FIRST or NULLS LAST");
    }
    try {
      if (descending) {
        builder.desc(term, nullOrder);
      } else {
        builder.asc(term, nullOrder);
      }
    } catch (ValidationException | IllegalArgumentException e) {
      throw invalid(e.getMessage());
    }
  }

  private Term term(String termText) {
    int open = termText.indexOf('(');
    if (open < 0) {
      return Expressions.ref(column(termText));
    }
    if (!termText.endsWith(")")) {
      throw invalid("cannot read '" + termText + "'");
    }
    String function = termText.substring(0, open).trim().toLowerCase(Locale.ROOT);
    List<String> arguments =
        List.of(termText.substring(open + 1, termText.length() - 1).split(",", -1)).stream()
            .map(String::trim)
            .toList();
    return switch (function) {
      case "identity" -> Expressions.ref(column(single(function, arguments)));
      case "year", "years" -> Expressions.year(column(single(function, arguments)));
      case "month", "months" -> Expressions.month(column(single(function, arguments)));
      case "day", "days" -> Expressions.day(column(single(function, arguments)));
      case "hour", "hours" -> Expressions.hour(column(single(function, arguments)));
      case "bucket" -> {
        int count = widthOf(function, arguments);
        yield Expressions.bucket(columnOf(function, arguments), count);
      }
      case "truncate" -> {
        int width = widthOf(function, arguments);
        yield Expressions.truncate(columnOf(function, arguments), width);
      }
      default ->
          throw invalid(
              "unknown transform '"
                  + function
                  + "'; use identity, year, month, day, hour, bucket(N, column)"
                  + " or truncate(N, column)");
    };
  }

  private String single(String function, List<String> arguments) {
    if (arguments.size() != 1 || arguments.get(0).isEmpty()) {
      throw invalid(function + " takes one column, e.g. " + function + "(ts)");
    }
    return arguments.get(0);
  }

  private String columnOf(String function, List<String> arguments) {
    checkTwoArguments(function, arguments);
    return column(isNumber(arguments.get(0)) ? arguments.get(1) : arguments.get(0));
  }

  private int widthOf(String function, List<String> arguments) {
    checkTwoArguments(function, arguments);
    String number = isNumber(arguments.get(0)) ? arguments.get(0) : arguments.get(1);
    if (!isNumber(number)) {
      throw invalid(
          function + " needs a whole number, e.g. " + function + "(16, id), not '" + number + "'");
    }
    int width;
    try {
      width = Integer.parseInt(number);
    } catch (NumberFormatException e) {
      width = 0;
    }
    if (width <= 0) {
      throw invalid(
          function
              + " needs a positive whole number up to "
              + Integer.MAX_VALUE
              + ", not "
              + number);
    }
    return width;
  }

  private void checkTwoArguments(String function, List<String> arguments) {
    if (arguments.size() != 2) {
      throw invalid(function + " takes a number and a column, e.g. " + function + "(16, id)");
    }
  }

  private static boolean isNumber(String text) {
    return !text.isEmpty() && text.chars().allMatch(Character::isDigit);
  }

  private String column(String name) {
    String unquoted = unquote(name.trim());
    if (unquoted.isEmpty()) {
      throw invalid("missing column name");
    }
    Types.NestedField field = schema.findField(unquoted);
    if (field == null) {
      throw invalid(
          "unknown column '"
              + unquoted
              + "'; columns: "
              + schema.columns().stream()
                  .map(Types.NestedField::name)
                  .collect(Collectors.joining(", ")));
    }
    return unquoted;
  }

  private static String unquote(String name) {
    if (name.length() >= 2
        && ((name.startsWith("`") && name.endsWith("`"))
            || (name.startsWith("\"") && name.endsWith("\"")))) {
      return name.substring(1, name.length() - 1);
    }
    return name;
  }

  private IllegalArgumentException invalid(String problem) {
    String oneLine = problem == null ? "cannot parse it" : problem.replaceAll("\\s*\\R\\s*", " ");
    return new IllegalArgumentException("Invalid sort order '" + text + "': " + oneLine);
  }
}
