package dev.lakeops.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.unit.ByteSize;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

/** {@code execution.spark-submit.*}: the command's parsing and placeholders, and its checks. */
class SubmitCommandTest {
  private static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");

  @Test
  void splitsLikeAShellAndAppendsTheFlags() {
    SubmitCommand command =
        SubmitCommand.parse(
            "spark-submit --conf 'spark.driver.extraJavaOptions=-Da=1 -Db=2' --class"
                + " dev.lakeops.spark.LakeOpsJob /opt/lakeops.jar compact {catalog}.{table}");

    assertThat(command.expand("lake", "db.events", List.of("--strategy", "sort")))
        .containsExactly(
            "spark-submit",
            "--conf",
            "spark.driver.extraJavaOptions=-Da=1 -Db=2",
            "--class",
            "dev.lakeops.spark.LakeOpsJob",
            "/opt/lakeops.jar",
            "compact",
            "lake.db.events",
            "--strategy",
            "sort");
    assertThat(SubmitCommand.parse(command.text())).isEqualTo(command);
  }

  @Test
  void aFoldedYamlCommandIsOneLine() {
    EffectivePolicy policy =
        new PolicyResolver(
                PolicyFile.parse(
                    """
                    catalog:
                      execution.spark-submit.command: >-
                        spark-submit --master yarn
                        --class dev.lakeops.spark.LakeOpsJob /opt/lakeops.jar
                        compact lake.{table}
                    """,
                    "policy.yaml"))
            .resolve(EVENTS, Map.of());

    assertThat(policy.sparkSubmitCommand().orElseThrow().expand("lake", "db.events", List.of()))
        .containsExactly(
            "spark-submit",
            "--master",
            "yarn",
            "--class",
            "dev.lakeops.spark.LakeOpsJob",
            "/opt/lakeops.jar",
            "compact",
            "lake.db.events");
  }

  @Test
  void placesTheFlagsWhereTheCommandSays() {
    assertThat(
            SubmitCommand.parse("job.sh compact \"cat.{table}\" {flags} --execution driver")
                .expand("lake", "db.events", List.of("--strategy", "binpack")))
        .containsExactly(
            "job.sh", "compact", "cat.db.events", "--strategy", "binpack", "--execution", "driver");
  }

  @Test
  void aCommandWithoutTheTablePlaceholderIsRejected() {
    assertThatThrownBy(
            () ->
                PolicyFile.parse(
                    "catalog:\n  execution.spark-submit.command: spark-submit job.jar compact\n",
                    "policy.yaml"))
        .isInstanceOf(PolicyException.class)
        .hasMessage(
            "policy.yaml: execution.spark-submit.command in catalog: 'spark-submit job.jar"
                + " compact': the command has no {table} placeholder for the table to compact");
  }

  @Test
  void theCommandIsSetOnlyInThePolicyFilesCatalogSection() {
    PolicyResolver resolver = new PolicyResolver(PolicyFile.empty());

    assertThatThrownBy(
            () ->
                resolver.resolve(
                    EVENTS, Map.of("lakeops.execution.spark-submit.command", "rm -rf {table}")))
        .isInstanceOf(PolicyException.class)
        .hasMessage(
            "table db.events: lakeops.execution.spark-submit.command is lake-wide: set it in the"
                + " policy file's catalog: section");
  }

  @Test
  void aThresholdWithoutACommandNamesTheMissingKey() {
    PolicyResolver resolver = new PolicyResolver(PolicyFile.empty());

    assertThatThrownBy(
            () ->
                resolver.resolve(EVENTS, Map.of("lakeops.execution.spark-submit.min-bytes", "1GB")))
        .isInstanceOf(PolicyException.class)
        .hasMessage(
            "table db.events: execution.spark-submit.min-bytes 1GB (from table-property:"
                + "lakeops.execution.spark-submit.min-bytes) needs execution.spark-submit.command:"
                + " set it in the policy file's catalog: section");
  }

  @Test
  void compactionsFromTheThresholdOnAreHandedOff() {
    EffectivePolicy policy =
        new PolicyResolver(
                PolicyFile.parse(
                    """
                    catalog:
                      execution.spark-submit.command: spark-submit job.jar compact {table}
                    namespaces:
                      db:
                        execution.spark-submit.min-bytes: 1GB
                    """,
                    "policy.yaml"))
            .resolve(EVENTS, Map.of());

    assertThat(policy.sparkSubmitMinBytes()).isEqualTo(Optional.of(ByteSize.parse("1GB")));
    assertThat(policy.handsOffToSparkSubmit(ByteSize.parse("1GB").bytes())).isTrue();
    assertThat(policy.handsOffToSparkSubmit(ByteSize.parse("1GB").bytes() - 1)).isFalse();
    assertThat(policy.text(PolicyKey.EXECUTION_SPARK_SUBMIT_COMMAND))
        .isEqualTo("spark-submit job.jar compact {table}");
    assertThat(policy.sparkSubmitTimeout()).hasHours(4);
    assertThat(EffectivePolicy.defaults(EVENTS).handsOffToSparkSubmit(Long.MAX_VALUE)).isFalse();
  }
}
