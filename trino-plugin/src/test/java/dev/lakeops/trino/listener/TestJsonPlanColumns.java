package dev.lakeops.trino.listener;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.telemetry.event.Clause;
import dev.lakeops.telemetry.event.ColumnReference;
import dev.lakeops.telemetry.event.PredicateKind;
import dev.lakeops.telemetry.event.TableName;
import org.junit.jupiter.api.Test;

/** Plan shapes as Trino 483 renders them (copied from real query events). */
class TestJsonPlanColumns {
  private static final TableName ORDERS = TableName.of("iceberg", "db", "orders");

  @Test
  void filterPredicateSymbolsBecomeFilterColumnsWithTheirKind() {
    String plan =
        """
        {"0": {"name": "Output", "descriptor": {}, "details": [], "children": [
          {"name": "ScanFilterProject",
           "descriptor": {"table": "iceberg:db.orders$data@786", "filterPredicate": "((double '6.0' < amount) AND (status = varchar 'open'))"},
           "details": ["id := 1:id:bigint", "status := 3:status:varchar", "amount := 4:amount:double"],
           "children": []}]}}""";

    assertThat(JsonPlanColumns.parse(plan).get(ORDERS))
        .containsExactlyInAnyOrder(
            ColumnReference.filter("amount", PredicateKind.RANGE),
            ColumnReference.filter("status", PredicateKind.EQUALITY));
  }

  @Test
  void likeIsALikePrefixEvenNextToTheRangeTrinoDerivesFromIt() {
    String plan =
        """
        {"0": {"name": "ScanFilterProject",
           "descriptor": {"table": "iceberg:db.orders$data@786",
                          "filterPredicate": "((varchar 'a' <= status) AND (status < varchar 'b') AND $like(status, LikePattern '[a%]'))"},
           "details": ["status := 3:status:varchar"], "children": []}}""";

    assertThat(JsonPlanColumns.parse(plan).get(ORDERS))
        .containsExactly(ColumnReference.filter("status", PredicateKind.LIKE_PREFIX));
  }

  @Test
  void pushedDownPartitionConstraintIsAFilter() {
    String plan =
        """
        {"1": {"name": "Aggregate", "descriptor": {"type": "PARTIAL", "keys": ""}, "details": [], "children": [
          {"name": "TableScan", "descriptor": {"table": "iceberg:db.orders$data@786 constraint on [day]"},
           "details": ["5:day:date", "    :: [[2026-01-02]]"], "children": []}]}}""";

    assertThat(JsonPlanColumns.parse(plan).get(ORDERS))
        .containsExactly(ColumnReference.filter("day", PredicateKind.EQUALITY));
  }

  @Test
  void joinCriteriaAndAggregateKeysAcrossFragments() {
    String plan =
        """
        {"0": {"name": "Aggregate", "descriptor": {"type": "FINAL", "keys": "[status]"}, "details": [], "children": [
            {"name": "InnerJoin", "descriptor": {"criteria": "(customer_id = id_1)"}, "details": [], "children": [
              {"name": "RemoteSource", "descriptor": {"sourceFragmentIds": "[1]"}, "details": [], "children": []}]}]},
         "1": {"name": "TableScan", "descriptor": {"table": "iceberg:db.orders$data@786"},
               "details": ["customer_id := 2:customer_id:bigint", "status := 3:status:varchar"], "children": []},
         "2": {"name": "TableScan", "descriptor": {"table": "iceberg:db.customers$data@5"},
               "details": ["id_1 := 1:id:bigint"], "children": []}}""";

    assertThat(JsonPlanColumns.parse(plan))
        .containsEntry(
            ORDERS,
            java.util.Set.of(
                ColumnReference.of("customer_id", Clause.JOIN_KEY),
                ColumnReference.of("status", Clause.GROUP_BY)))
        .containsEntry(
            TableName.of("iceberg", "db", "customers"),
            java.util.Set.of(ColumnReference.of("id", Clause.JOIN_KEY)));
  }
}
