package dev.lakeops.trino.listener;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.TableName;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads clause-level column usage from a query's JSON plan (fragment id to rendered node tree).
 *
 * <ul>
 *   <li>Scans ({@code TableScan}, {@code ScanFilter}, {@code ScanProject}, {@code
 *       ScanFilterProject}) name their table in {@code descriptor.table} ({@code
 *       catalog:schema.table$data@snapshot constraint on [col, ...]}) and map plan symbols to
 *       columns in {@code details} ({@code symbol := id:column:type}), each followed by its
 *       pushed-down domain ({@code :: [[...]]}).
 *   <li>FILTER: the symbols in a scan's {@code filterPredicate}, the columns of {@code constraint
 *       on [...]}, and any {@code Filter} node's predicate.
 *   <li>JOIN_KEY: the symbols of a join's {@code criteria}.
 *   <li>GROUP_BY: the symbols of an {@code Aggregate}'s {@code keys}.
 * </ul>
 *
 * Symbols keep their names across fragments, so one map from symbol to column serves the whole
 * plan. A symbol that is not a plain column (an expression) is not attributed.
 */
public final class JsonPlanColumns {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Pattern TABLE = Pattern.compile("^([^:]+):([^.]+)\\.([^$@ ]+)");
  private static final Pattern CONSTRAINT = Pattern.compile("constraint on \\[([^\\]]*)\\]");
  private static final Pattern ASSIGNMENT =
      Pattern.compile("^\\s*(\\S+) := (?:\\d+:)?([^:]+)(?::.*)?$");
  private static final Pattern UNASSIGNED_COLUMN = Pattern.compile("^\\s*\\d+:([^:\\s]+):.*$");
  private static final Pattern DOMAIN = Pattern.compile("^\\s*:: (.*)$");
  private static final Pattern STRING_LITERAL = Pattern.compile("'(?:[^']|'')*'");
  private static final Pattern QUOTED_SYMBOL = Pattern.compile("\"((?:[^\"]|\"\")+)\"");
  private static final Pattern BARE_SYMBOL = Pattern.compile("[A-Za-z_][A-Za-z0-9_$]*");

  private final Map<String, SymbolColumn> symbols = new HashMap<>();
  private final Map<TableName, Set<ColumnReference>> references = new LinkedHashMap<>();
  private final List<PendingClause> pending = new ArrayList<>();

  private JsonPlanColumns() {}

  /** Column references by table; tables whose scans the plan does not show are absent. */
  public static Map<TableName, Set<ColumnReference>> parse(String jsonPlan) {
    JsonNode root;
    try {
      root = MAPPER.readTree(jsonPlan);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot parse JSON plan", e);
    }
    JsonPlanColumns parser = new JsonPlanColumns();
    if (root.has("name")) {
      parser.visit(root);
    } else {
      root.forEach(parser::visit);
    }
    parser.resolvePending();
    return parser.references;
  }

  private void visit(JsonNode node) {
    String name = node.path("name").asText("");
    JsonNode descriptor = node.path("descriptor");
    if (descriptor.has("table")) {
      readScan(descriptor, node.path("details"));
    } else {
      if (descriptor.has("predicate") && name.contains("Filter")) {
        pending.add(new PendingClause(Clause.FILTER, descriptor.get("predicate").asText()));
      }
    }
    if (descriptor.has("criteria") && name.contains("Join")) {
      pending.add(new PendingClause(Clause.JOIN_KEY, descriptor.get("criteria").asText()));
    }
    if (name.startsWith("Aggregate") && descriptor.has("keys")) {
      pending.add(new PendingClause(Clause.GROUP_BY, descriptor.get("keys").asText()));
    }
    node.path("children").forEach(this::visit);
  }

  private void readScan(JsonNode descriptor, JsonNode details) {
    String tableText = descriptor.get("table").asText();
    Matcher table = TABLE.matcher(tableText);
    if (!table.find()) {
      return;
    }
    TableName tableName = TableName.of(table.group(1), table.group(2), table.group(3));
    Matcher constraint = CONSTRAINT.matcher(tableText);
    Map<String, String> domainsByColumn = new HashMap<>();
    String lastColumn = null;
    for (JsonNode line : details) {
      String text = line.asText();
      Matcher assignment = ASSIGNMENT.matcher(text);
      Matcher domain = DOMAIN.matcher(text);
      Matcher unassigned = UNASSIGNED_COLUMN.matcher(text);
      if (domain.matches() && lastColumn != null) {
        domainsByColumn.put(lastColumn, domain.group(1));
      } else if (assignment.matches()) {
        lastColumn = assignment.group(2);
        symbols.put(assignment.group(1), new SymbolColumn(tableName, lastColumn));
      } else if (unassigned.matches()) {
        // a column the scan constrains but does not output (a pushed-down partition filter)
        lastColumn = unassigned.group(1);
      }
    }
    if (constraint.find()) {
      for (String column : constraint.group(1).split(",")) {
        String trimmed = column.trim();
        if (!trimmed.isEmpty()) {
          add(
              tableName,
              new ColumnReference(
                  trimmed, Clause.FILTER, PredicateKinds.ofDomain(domainsByColumn.get(trimmed))));
        }
      }
    }
    if (descriptor.has("filterPredicate")) {
      pending.add(new PendingClause(Clause.FILTER, descriptor.get("filterPredicate").asText()));
    }
  }

  private void resolvePending() {
    for (PendingClause clause : pending) {
      for (String symbol : symbolsIn(clause.text())) {
        SymbolColumn column = symbols.get(symbol);
        if (column == null) {
          continue;
        }
        Optional<dev.lakeops.telemetry.event.PredicateKind> kind =
            clause.clause() == Clause.FILTER
                ? PredicateKinds.ofPredicate(
                    STRING_LITERAL.matcher(clause.text()).replaceAll("''"), symbol)
                : Optional.empty();
        add(column.table(), new ColumnReference(column.column(), clause.clause(), kind));
      }
    }
  }

  private Set<String> symbolsIn(String text) {
    Set<String> found = new LinkedHashSet<>();
    text = STRING_LITERAL.matcher(text).replaceAll("''");
    Matcher quoted = QUOTED_SYMBOL.matcher(text);
    while (quoted.find()) {
      found.add(quoted.group(1).replace("\"\"", "\""));
    }
    Matcher bare = BARE_SYMBOL.matcher(QUOTED_SYMBOL.matcher(text).replaceAll(""));
    while (bare.find()) {
      found.add(bare.group());
    }
    return found;
  }

  private void add(TableName table, ColumnReference reference) {
    Set<ColumnReference> columns =
        references.computeIfAbsent(table, ignored -> new LinkedHashSet<>());
    if (reference.clause() == Clause.FILTER
        && reference.predicateKind().isEmpty()
        && columns.stream()
            .anyMatch(
                existing ->
                    existing.clause() == Clause.FILTER
                        && existing.column().equals(reference.column()))) {
      return;
    }
    if (reference.clause() == Clause.FILTER && reference.predicateKind().isPresent()) {
      columns.removeIf(
          existing ->
              existing.clause() == Clause.FILTER
                  && existing.column().equals(reference.column())
                  && existing.predicateKind().isEmpty());
    }
    columns.add(reference);
  }

  private record SymbolColumn(TableName table, String column) {}

  private record PendingClause(Clause clause, String text) {}
}
