package dev.lakeops.web;

import static java.util.Objects.requireNonNull;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Which tables {@code GET /api/tables} lists: a name filter ({@code q}, a case-insensitive part of
 * {@code namespace.table}), an order ({@code sort}: {@code health}, worst first, the default, or
 * {@code name}) and a page ({@code offset}, {@code limit}: {@value #DEFAULT_LIMIT} tables unless
 * asked, at most {@value #MAXIMUM_LIMIT}).
 *
 * @param nameFilter the part of the name to match; empty matches every table
 * @param order the order of the tables
 * @param offset tables of the order skipped
 * @param limit most tables listed
 */
public record TableQuery(String nameFilter, Order order, int offset, int limit) {
  /** Tables on a page when {@code limit} is not given. */
  public static final int DEFAULT_LIMIT = 100;

  /** The most tables one page may list. */
  public static final int MAXIMUM_LIMIT = 1000;

  /** The first page of every table, worst first. */
  public static final TableQuery DEFAULT = new TableQuery("", Order.HEALTH, 0, DEFAULT_LIMIT);

  private static final Set<String> PARAMETERS = Set.of("q", "sort", "offset", "limit");

  /** The order of the tables. */
  public enum Order {
    /** Lowest health score first, then by name. */
    HEALTH,
    /** By name. */
    NAME
  }

  public TableQuery {
    requireNonNull(nameFilter, "nameFilter is null");
    requireNonNull(order, "order is null");
    if (offset < 0) {
      throw new IllegalArgumentException("offset must not be negative, got " + offset);
    }
    if (limit < 1 || limit > MAXIMUM_LIMIT) {
      throw new IllegalArgumentException(
          "limit must be from 1 to " + MAXIMUM_LIMIT + ", got " + limit);
    }
  }

  /** Parses the query parameters of a request; the message of a bad one names it and its values. */
  public static TableQuery parse(Map<String, String> parameters) {
    for (String name : parameters.keySet()) {
      if (!PARAMETERS.contains(name)) {
        throw new IllegalArgumentException(
            "Unknown parameter '" + name + "' of /api/tables: use q, sort, offset or limit");
      }
    }
    String sort = parameters.getOrDefault("sort", "health");
    Order order =
        switch (sort) {
          case "health" -> Order.HEALTH;
          case "name" -> Order.NAME;
          default ->
              throw new IllegalArgumentException(
                  "Invalid sort '" + sort + "': use health (worst first) or name");
        };
    return new TableQuery(
        parameters.getOrDefault("q", "").trim(),
        order,
        number(parameters.get("offset"), "offset", 0, Integer.MAX_VALUE, 0),
        number(parameters.get("limit"), "limit", 1, MAXIMUM_LIMIT, DEFAULT_LIMIT));
  }

  /** Whether {@code table} matches the name filter. */
  public boolean matches(String table) {
    return nameFilter.isEmpty()
        || table.toLowerCase(Locale.ROOT).contains(nameFilter.toLowerCase(Locale.ROOT));
  }

  private static int number(String text, String name, int least, int most, int absent) {
    if (text == null) {
      return absent;
    }
    try {
      int value = Integer.parseInt(text.trim());
      if (value < least || value > most) {
        throw new NumberFormatException();
      }
      return value;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Invalid " + name + " '" + text + "': use a number from " + least + " to " + most);
    }
  }
}
