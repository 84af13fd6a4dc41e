package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import dev.lakeops.expression.WhereParser;
import dev.lakeops.memory.MemoryBudget;
import dev.lakeops.plan.RewriteOptions;
import dev.lakeops.rewrite.sort.SortLayout;
import dev.lakeops.verify.VerificationMode;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.Table;
import org.apache.iceberg.expressions.Binder;
import org.apache.iceberg.expressions.BoundPredicate;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.ExpressionVisitors;
import org.apache.iceberg.expressions.UnboundPredicate;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * A compaction request checked against its table before anything is touched: every option, the sort
 * or z-order layout, the where filter (parsed and bound to the table's columns) and the memory
 * budget. A request that fails here is refused with one line before the table's lock is taken, so a
 * refused run writes nothing.
 *
 * @param options the parsed rewrite options
 * @param layout the row layout of a sort or zorder request; empty for binpack (and for {@code
 *     auto}, which is checked again once resolved)
 * @param filter the where filter, bound-checked; {@code alwaysTrue} without one
 * @param verification the verification mode, the request's or the strategy's default
 */
public record CheckedCompaction(
    RewriteOptions options,
    Optional<SortLayout> layout,
    Expression filter,
    VerificationMode verification) {
  public CheckedCompaction {
    requireNonNull(verification, "verification is null");
    requireNonNull(options, "options is null");
    requireNonNull(layout, "layout is null");
    requireNonNull(filter, "filter is null");
  }

  /**
   * Checks {@code request} against {@code table}.
   *
   * @throws IllegalArgumentException naming the bad value and the fix
   */
  public static CheckedCompaction of(Table table, CompactionRequest request) {
    requireNonNull(table, "table is null");
    requireNonNull(request, "request is null");
    MemoryBudget.requireUsable(request.memoryBudget());
    VerificationMode verification = request.verificationMode();
    RewriteOptions options = RewriteOptions.parse(table, request.options());
    Optional<SortLayout> layout = layoutFor(table, request);
    Expression filter = WhereParser.parse(request.where().orElse(null));
    requireBindable(table, request.where().orElse(""), filter);
    return new CheckedCompaction(options, layout, filter, verification);
  }

  /** The row layout of a sort or zorder request; empty for binpack and auto. */
  private static Optional<SortLayout> layoutFor(Table table, CompactionRequest request) {
    return switch (request.strategy()) {
      case BINPACK, AUTO -> Optional.empty();
      case SORT -> Optional.of(SortLayout.sortOrder(table, request.sortOrder()));
      case ZORDER -> Optional.of(SortLayout.zorder(table, request.zorderColumns()));
    };
  }

  /** Binds {@code filter} as the planner's scan will (case-sensitive), to refuse it up front. */
  private static void requireBindable(Table table, String text, Expression filter) {
    Types.StructType columns = table.schema().asStruct();
    Set<String> unknown = new TreeSet<>();
    ExpressionVisitors.visit(filter, new UnknownColumns(columns, unknown));
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "Invalid where filter \""
              + text
              + "\": unknown column"
              + (unknown.size() == 1 ? " '" : "s '")
              + String.join("', '", unknown)
              + "' in "
              + table.name()
              + "; columns: "
              + String.join(", ", columns.fields().stream().map(Types.NestedField::name).toList()));
    }
    try {
      Binder.bind(columns, filter, true);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "Invalid where filter \"" + text + "\": " + e.getMessage(), e);
    }
  }

  /** Collects the column names of unbound predicates that the table's schema lacks. */
  private static final class UnknownColumns extends ExpressionVisitors.ExpressionVisitor<Void> {
    private final Set<String> known;
    private final Set<String> unknown;

    UnknownColumns(Types.StructType columns, Set<String> unknown) {
      this.known = TypeUtil.indexByName(columns).keySet();
      this.unknown = unknown;
    }

    @Override
    public <T> Void predicate(UnboundPredicate<T> predicate) {
      String name = predicate.ref().name();
      if (!known.contains(name)) {
        unknown.add(name);
      }
      return null;
    }

    @Override
    public <T> Void predicate(BoundPredicate<T> predicate) {
      return null;
    }
  }
}
