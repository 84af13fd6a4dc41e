package dev.lakeops.trino.listener;

import dev.lakeops.telemetry.event.PredicateKind;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Tells the kind of a predicate on one symbol from its plan text, when the text makes it clear. */
final class PredicateKinds {
  private PredicateKinds() {}

  /**
   * The kind of the comparison right after {@code "symbol"} in a predicate such as {@code
   * ("country" = 'NL') AND ("ts" >= TIMESTAMP '...')}.
   */
  static Optional<PredicateKind> ofPredicate(String predicate, String symbol) {
    String quoted = "\"" + symbol.replace("\"", "\"\"") + "\"";
    // Trino plans print LIKE as $like(name, LikePattern '[a%]'), next to the range it derives
    // from the prefix ('a' <= name AND name < 'b'): the LIKE is what the query said
    if (Pattern.compile(
            "\\$like\\(\\s*(" + Pattern.quote(quoted) + "|" + Pattern.quote(symbol) + ")\\s*,",
            Pattern.CASE_INSENSITIVE)
        .matcher(predicate)
        .find()) {
      return Optional.of(PredicateKind.LIKE_PREFIX);
    }
    int at = predicate.indexOf(quoted);
    int length = quoted.length();
    if (at < 0) {
      Matcher bare =
          Pattern.compile("(?<![A-Za-z0-9_$\"])" + Pattern.quote(symbol) + "(?![A-Za-z0-9_$(\"])")
              .matcher(predicate);
      if (!bare.find()) {
        return Optional.empty();
      }
      at = bare.start();
      length = symbol.length();
    }
    String after = predicate.substring(at + length).stripLeading().toUpperCase(Locale.ROOT);
    String before = predicate.substring(0, at).stripTrailing().toUpperCase(Locale.ROOT);
    if (after.startsWith("IS NULL")
        || after.startsWith("IS NOT NULL")
        || before.endsWith("NOT") && after.startsWith("IS")) {
      return Optional.of(PredicateKind.IS_NULL);
    }
    if (after.startsWith("IN (") || after.startsWith("IN(")) {
      return Optional.of(PredicateKind.IN_LIST);
    }
    if (after.startsWith("LIKE") || before.endsWith("STARTS_WITH(")) {
      return Optional.of(PredicateKind.LIKE_PREFIX);
    }
    if (after.startsWith("BETWEEN")
        || after.startsWith(">")
        || after.startsWith("<") && !after.startsWith("<>")) {
      return Optional.of(PredicateKind.RANGE);
    }
    if (after.startsWith("=")) {
      return Optional.of(PredicateKind.EQUALITY);
    }
    if (Pattern.compile("[<>]=?\\s*$").matcher(before).find()) {
      return Optional.of(PredicateKind.RANGE);
    }
    if (before.endsWith("=") && !before.endsWith("<>=")) {
      return Optional.of(PredicateKind.EQUALITY);
    }
    return Optional.empty();
  }

  /**
   * The kind of a pushed-down domain as plans print it: {@code [['NL']]} one value, {@code [[1],
   * [2]]} several, {@code [(10, <max>)]} a range, {@code [NULL]} null.
   */
  static Optional<PredicateKind> ofDomain(String domain) {
    if (domain == null) {
      return Optional.empty();
    }
    String text = domain.trim();
    if (text.equals("NULL") || text.startsWith("NULL") || text.endsWith("NULL")) {
      return Optional.of(PredicateKind.IS_NULL);
    }
    if (text.contains("<min>")
        || text.contains("<max>")
        || text.contains(", ") && !text.contains("], [")) {
      return Optional.of(PredicateKind.RANGE);
    }
    if (text.contains("], [")) {
      return Optional.of(PredicateKind.IN_LIST);
    }
    if (text.startsWith("[[") && text.endsWith("]]")) {
      return Optional.of(PredicateKind.EQUALITY);
    }
    return Optional.empty();
  }
}
