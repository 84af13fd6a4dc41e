package dev.lakeops.expression;

import java.util.ArrayList;
import java.util.List;

/** Splits a where filter into identifiers, quoted strings, numbers, operators and punctuation. */
final class WhereTokenizer {
  private WhereTokenizer() {}

  static List<String> tokenize(String text) {
    List<String> tokens = new ArrayList<>();
    int index = 0;
    while (index < text.length()) {
      char current = text.charAt(index);
      if (Character.isWhitespace(current)) {
        index++;
      } else if (current == '\'') {
        int end = index + 1;
        while (end < text.length()) {
          if (text.charAt(end) == '\'' && end + 1 < text.length() && text.charAt(end + 1) == '\'') {
            end += 2;
          } else if (text.charAt(end) == '\'') {
            break;
          } else {
            end++;
          }
        }
        if (end >= text.length()) {
          throw new IllegalArgumentException(
              "Invalid where filter \""
                  + text
                  + "\": unterminated string starting at position "
                  + index);
        }
        tokens.add(text.substring(index, end + 1));
        index = end + 1;
      } else if (current == '"' || current == '`') {
        int end = text.indexOf(current, index + 1);
        if (end < 0) {
          throw new IllegalArgumentException(
              "Invalid where filter \""
                  + text
                  + "\": unterminated quoted name at position "
                  + index);
        }
        tokens.add(text.substring(index, end + 1));
        index = end + 1;
      } else if ("(),".indexOf(current) >= 0) {
        tokens.add(String.valueOf(current));
        index++;
      } else if ("<>=!".indexOf(current) >= 0) {
        int end = index + 1;
        if (end < text.length() && "=>".indexOf(text.charAt(end)) >= 0) {
          end++;
        }
        tokens.add(text.substring(index, end));
        index = end;
      } else {
        int end = index;
        while (end < text.length()
            && !Character.isWhitespace(text.charAt(end))
            && "(),<>=!'".indexOf(text.charAt(end)) < 0) {
          end++;
        }
        tokens.add(text.substring(index, end));
        index = end;
      }
    }
    return tokens;
  }
}
