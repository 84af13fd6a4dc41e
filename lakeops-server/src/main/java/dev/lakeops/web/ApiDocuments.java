package dev.lakeops.web;

import java.util.List;

/**
 * The JSON API's documents. Jackson writes record components in snake case ({@code healthScore}
 * becomes {@code health_score}); absent values are {@code null}. Documented in
 * docs/observability.md: add fields, never rename or remove one.
 */
public final class ApiDocuments {
  private ApiDocuments() {}

  /**
   * {@code GET /api/tables}: one page of the tables ({@code tables}), the queue, the budget, the
   * latest runs.
   *
   * @param lakeTables tables the daemon evaluated, in all
   * @param unhealthyTables of those, the tables scoring under 80
   * @param matchingTables tables matching the name filter {@code q}
   * @param offset tables of the order before this page
   * @param limit most tables on a page
   * @param nextOffset the {@code offset} of the next page; null on the last
   */
  public record Lake(
      String generatedAt,
      Budget budget,
      List<TableRow> tables,
      List<Queued> queue,
      List<Run> runs,
      int lakeTables,
      int unhealthyTables,
      int matchingTables,
      int offset,
      int limit,
      Integer nextOffset) {}

  public record Budget(long usedBytes, long totalBytes) {}

  /**
   * {@code GET /api/members}: the serve processes sharing the store (empty when this one shares
   * none) and the operations suspended after failing in a row.
   */
  public record Members(
      String generatedAt, String self, List<Member> members, List<Suspended> suspended) {}

  /**
   * A live member: its tables, and their health as this process last saw it ({@code null} when it
   * evaluated none of them).
   */
  public record Member(
      String memberId,
      String host,
      long pid,
      String startedAt,
      String heartbeatAt,
      boolean self,
      List<String> tables,
      Integer meanHealthScore,
      Integer worstHealthScore) {}

  public record Suspended(
      String table, String operation, int failuresInRow, String lastError, String suspendedAt) {}

  public record TableRow(
      String table,
      int healthScore,
      String worstPart,
      long dataFiles,
      long smallFiles,
      long deleteFiles,
      long dataBytes,
      String sampledAt,
      List<HealthPoint> healthHistory,
      Run lastRun,
      List<Queued> queued) {}

  /** {@code GET /api/tables/{table}}. */
  public record TableDetail(
      String table,
      int healthScore,
      String worstPart,
      long dataFiles,
      long smallFiles,
      long deleteFiles,
      long dataBytes,
      String sampledAt,
      List<HealthPoint> healthHistory,
      FileSizes fileSizes,
      List<DayBytes> rewrittenBytesPerDay,
      List<Policy> policy,
      List<Queued> queued,
      List<Run> runs) {}

  /** One health sample; {@code at} in seconds since the epoch. */
  public record HealthPoint(
      long at, int healthScore, long dataFiles, long smallFiles, long deleteFiles) {}

  /** File-size histogram now and at the snapshot the last compaction committed. */
  public record FileSizes(
      List<Long> bucketUpperBytes,
      List<Long> now,
      List<Long> afterLastCompaction,
      Long lastCompactionSnapshotId,
      Long targetFileSizeBytes) {}

  public record DayBytes(String day, long bytes) {}

  public record Policy(String key, String value, String source) {}

  public record Queued(
      String table,
      String operation,
      String reason,
      double benefitPerCost,
      Double predictedSeconds,
      Long predictedMemoryBytes) {}

  /** {@code GET /api/runs}. */
  public record Runs(List<Run> runs) {}

  public record Run(
      String runId,
      String table,
      String operation,
      String reason,
      String host,
      String startedAt,
      String finishedAt,
      String status,
      String error,
      long inputFiles,
      long outputFiles,
      long inputBytes,
      long outputBytes,
      long peakMemoryBytes,
      Double durationSeconds,
      long commitConflicts,
      Long snapshotId,
      Double predictedSeconds,
      Long predictedPeakMemoryBytes) {}
}
