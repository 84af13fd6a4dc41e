package dev.lakeops.unit;

import static java.util.Objects.requireNonNull;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the durations and timestamps users type: {@code 7d}, {@code 12h}, {@code 30m}, {@code
 * 90s}, {@code 2w}, ISO-8601 {@code P7D}/{@code PT12H}; timestamps {@code 2026-01-31}, {@code
 * 2026-01-31T12:00:00} (UTC) and {@code 2026-01-31T12:00:00+01:00}.
 */
public final class TimeInput {
  private static final Pattern SHORT_DURATION = Pattern.compile("(\\d+)\\s*(ms|s|m|h|d|w)");

  private TimeInput() {}

  public static Duration parseDuration(String text, String what) {
    requireNonNull(text, "text is null");
    String trimmed = text.trim().toLowerCase(Locale.ROOT);
    Matcher matcher = SHORT_DURATION.matcher(trimmed);
    try {
      if (matcher.matches()) {
        long amount = Long.parseLong(matcher.group(1));
        return switch (matcher.group(2)) {
          case "ms" -> Duration.ofMillis(amount);
          case "s" -> Duration.ofSeconds(amount);
          case "m" -> Duration.ofMinutes(amount);
          case "h" -> Duration.ofHours(amount);
          case "d" -> Duration.ofDays(amount);
          default -> Duration.ofDays(amount * 7);
        };
      }
      if (trimmed.startsWith("p")) {
        return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
      }
    } catch (ArithmeticException | NumberFormatException | DateTimeParseException e) {
      // fall through to the one error message below
    }
    throw new IllegalArgumentException(
        "Invalid " + what + " '" + text + "': use a duration such as 3d, 12h, 30m, 2w or PT36H");
  }

  /**
   * An instant from a duration before {@code now} ({@code 7d}) or from a timestamp ({@code
   * 2026-01-31T00:00:00Z}).
   */
  public static Instant parseCutoff(String text, Instant now, String what) {
    return parseCutoff(text, now, what, ZoneOffset.UTC);
  }

  /**
   * As {@link #parseCutoff(String, Instant, String)}; a timestamp without offset ({@code
   * 2026-01-31T12:00:00} or {@code 2026-01-31 12:00:00}, as an engine prints a TIMESTAMP) is read
   * in {@code zone}.
   */
  public static Instant parseCutoff(String text, Instant now, String what, ZoneId zone) {
    requireNonNull(text, "text is null");
    requireNonNull(zone, "zone is null");
    String trimmed = text.trim();
    if (trimmed.length() > 10 && trimmed.charAt(10) == ' ') {
      trimmed = trimmed.substring(0, 10) + 'T' + trimmed.substring(11).trim();
    }
    if (!trimmed.isEmpty()
        && Character.isDigit(trimmed.charAt(0))
        && trimmed.length() >= 10
        && trimmed.charAt(4) == '-') {
      try {
        if (trimmed.length() == 10) {
          return LocalDate.parse(trimmed).atStartOfDay(zone).toInstant();
        }
        if (trimmed.endsWith("Z") || trimmed.matches(".*[+-]\\d\\d:\\d\\d$")) {
          return OffsetDateTime.parse(trimmed).toInstant();
        }
        return LocalDateTime.parse(trimmed).atZone(zone).toInstant();
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(
            "Invalid "
                + what
                + " '"
                + text
                + "': use a timestamp such as 2026-01-31T00:00:00Z or a duration such as 7d");
      }
    }
    try {
      return now.minus(parseDuration(trimmed, what));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Invalid "
              + what
              + " '"
              + text
              + "': use a duration such as 7d, 12h, 30m or a timestamp such as "
              + "2026-01-31T00:00:00Z");
    }
  }

  /** {@code 3d}, {@code 36h}, {@code 90m}, {@code 45s} or {@code 250ms}: the largest exact unit. */
  public static String format(Duration duration) {
    long millis = duration.toMillis();
    if (millis != 0 && millis % Duration.ofDays(1).toMillis() == 0) {
      return duration.toDays() + "d";
    }
    if (millis != 0 && millis % Duration.ofHours(1).toMillis() == 0) {
      return duration.toHours() + "h";
    }
    if (millis != 0 && millis % Duration.ofMinutes(1).toMillis() == 0) {
      return duration.toMinutes() + "m";
    }
    if (millis % 1000 == 0) {
      return duration.toSeconds() + "s";
    }
    return millis + "ms";
  }
}
