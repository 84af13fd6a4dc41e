package dev.lakeops.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.lakeops.demo.DemoTableGenerator;
import dev.lakeops.io.ObjectReadOptions;
import dev.lakeops.option.RewriteOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins every rewrite option's name and default (in the spirit of Trino's {@code
 * assertRecordedDefaults} and {@code assertFullMapping}): a renamed key or changed default fails
 * here before it reaches a user's procedure call.
 */
class RewriteOptionsTest {
  private static final int PROCESSORS = Runtime.getRuntime().availableProcessors();

  @TempDir Path warehouse;
  private Table table;

  @BeforeEach
  void createTable() {
    HadoopCatalog catalog = new HadoopCatalog(new Configuration(), warehouse.toString());
    table =
        catalog.createTable(
            TableIdentifier.of("db", "events"),
            DemoTableGenerator.SCHEMA,
            PartitionSpec.unpartitioned(),
            Map.of(TableProperties.WRITE_TARGET_FILE_SIZE_BYTES, "1000"));
  }

  @Test
  void everyOptionHasItsRecordedNameTypeAndDefault() {
    Map<String, String> recorded = new LinkedHashMap<>();
    for (RewriteOption<?> option : RewriteOptions.OPTIONS) {
      recorded.put(option.key(), option.type() + " " + option.defaultDescription());
    }
    assertThat(recorded)
        .containsExactly(
            entry("target-file-size-bytes", "long the table's write.target-file-size-bytes"),
            entry("min-file-size-bytes", "long 75% of target-file-size-bytes"),
            entry("max-file-size-bytes", "long 180% of target-file-size-bytes"),
            entry("min-input-files", "int 5"),
            entry("max-file-group-size-bytes", "long 107374182400 (100 GB)"),
            entry("rewrite-all", "boolean false"),
            entry("delete-file-threshold", "int 2147483647 (no limit)"),
            entry("delete-ratio-threshold", "double 0.3"),
            entry("max-files-to-rewrite", "int 2147483647 (no limit)"),
            entry("min-age", "duration 0 (every file qualifies)"),
            entry("recompact-min-bytes", "long 0"),
            entry("recompact-min-files", "int 0"),
            entry("partial-progress.enabled", "boolean false"),
            entry("partial-progress.max-commits", "int 10"),
            entry("partial-progress.max-failed-commits", "int partial-progress.max-commits"),
            entry("use-starting-sequence-number", "boolean true"),
            entry("remove-dangling-deletes", "boolean true"),
            entry("max-concurrent-file-group-rewrites", "int the number of available processors"),
            entry("decode-free-merge", "boolean true"),
            entry("rewrite-codec", "boolean false"),
            entry("row-group-size-bytes", "long the table's write.parquet.row-group-size-bytes"),
            entry("io.prefetch", "auto or boolean auto"),
            entry("io.max-concurrent-requests", "int 64"),
            entry("io.whole-object-read-bytes", "size 8388608 (8 MB)"));
    for (RewriteOption<?> option : RewriteOptions.OPTIONS) {
      assertThat(option.description()).as(option.key()).isNotBlank().doesNotContain("\n");
    }
  }

  @Test
  void defaultsResolveAgainstTheTable() {
    assertThat(RewriteOptions.parse(table, Map.of()))
        .isEqualTo(
            new RewriteOptions(
                new PlannerOptions(
                    1000,
                    750,
                    1800,
                    5,
                    107374182400L,
                    false,
                    Integer.MAX_VALUE,
                    0.3,
                    Integer.MAX_VALUE,
                    Duration.ZERO,
                    0,
                    0),
                new CommitOptions(false, 10, 10, true, true),
                new ExecutionOptions(PROCESSORS, true),
                new WriterOptions(false, OptionalLong.empty()),
                new ObjectReadOptions(false, 64, 8388608)));
  }

  @Test
  void everyOptionIsReadFromItsKey() {
    Map<String, String> given = new LinkedHashMap<>();
    given.put("target-file-size-bytes", "2000");
    given.put("min-file-size-bytes", "100");
    given.put("max-file-size-bytes", "3000");
    given.put("min-input-files", "7");
    given.put("max-file-group-size-bytes", "4096");
    given.put("rewrite-all", "TRUE");
    given.put("delete-file-threshold", "3");
    given.put("delete-ratio-threshold", "0.5");
    given.put("max-files-to-rewrite", "11");
    given.put("min-age", "15m");
    given.put("recompact-min-bytes", "512");
    given.put("recompact-min-files", "4");
    given.put("partial-progress.enabled", "true");
    given.put("partial-progress.max-commits", "3");
    given.put("partial-progress.max-failed-commits", "1");
    given.put("use-starting-sequence-number", "false");
    given.put("remove-dangling-deletes", "false");
    given.put("max-concurrent-file-group-rewrites", "2");
    given.put("decode-free-merge", "false");
    given.put("rewrite-codec", "true");
    given.put("row-group-size-bytes", "16777216");
    given.put("io.prefetch", "true");
    given.put("io.max-concurrent-requests", "8");
    given.put("io.whole-object-read-bytes", "1MB");
    assertThat(given.keySet())
        .containsExactlyElementsOf(
            RewriteOptions.OPTIONS.stream().map(RewriteOption::key).toList());

    assertThat(RewriteOptions.parse(table, given))
        .isEqualTo(
            new RewriteOptions(
                new PlannerOptions(
                    2000, 100, 3000, 7, 4096, true, 3, 0.5, 11, Duration.ofMinutes(15), 512, 4),
                new CommitOptions(true, 3, 1, false, false),
                new ExecutionOptions(2, false),
                new WriterOptions(true, OptionalLong.of(16777216)),
                new ObjectReadOptions(true, 8, 1048576)));
  }

  @Test
  void derivedDefaultsFollowTheOptionTheyDeriveFrom() {
    RewriteOptions options =
        RewriteOptions.parse(
            table, Map.of("target-file-size-bytes", "100", "partial-progress.max-commits", "4"));

    assertThat(options.minFileSizeBytes()).isEqualTo(75);
    assertThat(options.maxFileSizeBytes()).isEqualTo(180);
    assertThat(options.partialProgressMaxFailedCommits()).isEqualTo(4);
  }

  @Test
  void validKeysAreTheKeysOfEveryGroup() {
    Set<String> expected = new HashSet<>();
    RewriteOptions.OPTIONS.forEach(option -> expected.add(option.key()));
    assertThat(RewriteOptions.VALID_KEYS).isEqualTo(expected).hasSize(24);
    assertThat(RewriteOptions.OPTIONS).hasSize(24);
  }

  @Test
  void prefetchFollowsTheTableLocationUnlessSet() {
    assertThat(RewriteOptions.parse(table, Map.of()).io().prefetch()).isFalse();
    assertThat(RewriteOptions.parse(table, Map.of("io.prefetch", "AUTO")).io().prefetch())
        .isFalse();
    assertThat(RewriteOptions.parse(table, Map.of("io.prefetch", "true")).io().prefetch()).isTrue();
  }

  @Test
  void unknownKeyIsNamedWithTheValidOnes() {
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("target-size", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Unknown rewrite option 'target-size'; valid options: decode-free-merge,"
                + " delete-file-threshold, delete-ratio-threshold, io.max-concurrent-requests,")
        .hasMessageEndingWith("target-file-size-bytes, use-starting-sequence-number");
  }

  @Test
  void outputSpecIdIsRefusedWithWhatToDoInstead() {
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("output-spec-id", "0")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Rewrite option 'output-spec-id' is not supported: LakeOps writes each file group in"
                + " its input files' partition spec; remove the option, or use Iceberg's"
                + " rewrite_data_files to move files to another spec");
  }

  @Test
  void icebergShuffleTuningIsAcceptedAndChangesNothing() {
    assertThat(
            RewriteOptions.parse(
                table, Map.of("rewrite-job-order", "bytes-desc", "compression-factor", "2")))
        .isEqualTo(RewriteOptions.parse(table, Map.of()));
  }

  @Test
  void malformedValuesNameTheKeyAndTheFormExpected() {
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("min-input-files", "five")))
        .hasMessage(
            "Invalid value 'five' for rewrite option 'min-input-files': expected a whole number");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("min-input-files", "3000000000")))
        .hasMessage(
            "Invalid value '3000000000' for rewrite option 'min-input-files': expected a whole"
                + " number up to 2147483647");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("delete-ratio-threshold", "x")))
        .hasMessage(
            "Invalid value 'x' for rewrite option 'delete-ratio-threshold': expected a number");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("rewrite-all", "yes")))
        .hasMessage("Invalid value 'yes' for rewrite option 'rewrite-all': expected true or false");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("min-age", "soon")))
        .hasMessageStartingWith("Invalid rewrite option 'min-age' 'soon': use a duration");
  }

  @Test
  void valuesOutOfRangeNameTheKeyAndTheRequirement() {
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("target-file-size-bytes", "0")))
        .hasMessage(
            "Invalid value 0 for rewrite option 'target-file-size-bytes': must be positive");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("min-file-size-bytes", "1000")))
        .hasMessage(
            "Invalid value 1000 for rewrite option 'min-file-size-bytes': must be less than"
                + " target-file-size-bytes (1000)");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("max-file-size-bytes", "999")))
        .hasMessage(
            "Invalid value 999 for rewrite option 'max-file-size-bytes': must be greater than"
                + " target-file-size-bytes (1000)");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("delete-ratio-threshold", "1.5")))
        .hasMessage(
            "Invalid value 1.5 for rewrite option 'delete-ratio-threshold': must be in (0, 1]");
    assertThatThrownBy(
            () -> RewriteOptions.parse(table, Map.of("partial-progress.max-failed-commits", "-1")))
        .hasMessage(
            "Invalid value -1 for rewrite option 'partial-progress.max-failed-commits': must not"
                + " be negative");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("row-group-size-bytes", "0")))
        .hasMessage("Invalid value 0 for rewrite option 'row-group-size-bytes': must be positive");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("io.max-concurrent-requests", "0")))
        .hasMessage(
            "Invalid value 0 for rewrite option 'io.max-concurrent-requests': must be from 1 to"
                + " 1024");
    assertThatThrownBy(() -> RewriteOptions.parse(table, Map.of("io.prefetch", "sometimes")))
        .hasMessage(
            "Invalid value 'sometimes' for rewrite option 'io.prefetch': expected auto, true or"
                + " false");
    assertThatThrownBy(
            () -> RewriteOptions.parse(table, Map.of("io.whole-object-read-bytes", "lots")))
        .hasMessage(
            "Invalid value 'lots' for rewrite option 'io.whole-object-read-bytes': expected a"
                + " number of bytes or a size such as 8MB");
  }

  @Test
  void sortingAllRewritesEveryFileByDecoding() {
    RewriteOptions options = RewriteOptions.parse(table, Map.of("min-input-files", "9"));

    RewriteOptions sorting = options.sortingAll();

    assertThat(sorting.rewriteAll()).isTrue();
    assertThat(sorting.decodeFreeMerge()).isFalse();
    assertThat(sorting.minInputFiles()).isEqualTo(9);
    assertThat(sorting.commit()).isEqualTo(options.commit());
    assertThat(sorting.writer()).isEqualTo(options.writer());
  }
}
