package dev.lakeops.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.Strategy;
import dev.lakeops.unit.ByteSize;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PolicyResolverTest {
  private static final TableIdentifier EVENTS = TableIdentifier.of("db", "events");

  @TempDir Path directory;

  @Test
  void mostSpecificLevelWinsAcrossAllFiveLevels() throws Exception {
    Path file = directory.resolve("policy.yaml");
    Files.writeString(
        file,
        """
        catalog:
          compact.min-small-files: 20
          compact.min-delete-files: 30
          expire.older-than: 3d
          poll-interval: 2m
          max-concurrent-tables: 4
          memory: 2GB
        namespaces:
          db:
            compact:
              min-small-files: 16
              strategy: sort
            expire.older-than: 2d
        tables:
          db.events:
            compact: {min-small-files: 8}
            expire:
              retain-last: 5
        """);
    PolicyResolver resolver = new PolicyResolver(PolicyFile.load(file));

    EffectivePolicy policy =
        resolver.resolve(
            EVENTS,
            Map.of("lakeops.compact.min-small-files", "4", "write.format.default", "parquet"));

    assertThat(policy.minSmallFiles()).isEqualTo(4);
    assertThat(policy.source(PolicyKey.COMPACT_MIN_SMALL_FILES))
        .hasToString("table-property:lakeops.compact.min-small-files");
    assertThat(policy.expireRetainLast()).isEqualTo(5);
    assertThat(policy.source(PolicyKey.EXPIRE_RETAIN_LAST)).hasToString("table:db.events");
    assertThat(policy.compactStrategy()).isEqualTo(Strategy.SORT);
    assertThat(policy.expireOlderThan()).isEqualTo(Duration.ofDays(2));
    assertThat(policy.source(PolicyKey.EXPIRE_OLDER_THAN)).hasToString("namespace:db");
    assertThat(policy.minDeleteFiles()).isEqualTo(30);
    assertThat(policy.pollInterval()).isEqualTo(Duration.ofMinutes(2));
    assertThat(policy.source(PolicyKey.COMPACT_MIN_DELETE_FILES)).hasToString("catalog");
    assertThat(policy.smallFileRatio()).isEqualTo(0.75);
    assertThat(policy.source(PolicyKey.COMPACT_SMALL_FILE_RATIO)).hasToString("default");
    assertThat(policy.maxConcurrentTables()).isEqualTo(4);
    assertThat(resolver.file().lakeSettings())
        .isEqualTo(new LakeSettings(4, ByteSize.parse("2GB"), Optional.empty()));

    EffectivePolicy other = resolver.resolve(TableIdentifier.of("db", "clicks"), Map.of());
    assertThat(other.minSmallFiles()).isEqualTo(16);
    assertThat(other.source(PolicyKey.COMPACT_MIN_SMALL_FILES)).hasToString("namespace:db");
    EffectivePolicy elsewhere = resolver.resolve(TableIdentifier.of("sales", "orders"), Map.of());
    assertThat(elsewhere.minSmallFiles()).isEqualTo(20);
    assertThat(elsewhere.compactStrategy()).isEqualTo(Strategy.BINPACK);
  }

  @Test
  void nestedNamespacesApplyParentFirstAndDottedKeysEqualNestedMaps() {
    PolicyFile file =
        PolicyFile.parse(
            """
            namespaces:
              a: {compact.min-interval: 1h, orphans: {interval: 2d}}
              a.b:
                compact:
                  min-interval: 30m
                  options:
                    partial-progress.enabled: true
                    min-input-files: 3
            """,
            "policy.yaml");

    EffectivePolicy policy =
        new PolicyResolver(file).resolve(TableIdentifier.of(Namespace.of("a", "b"), "t"), Map.of());

    assertThat(policy.compactMinInterval()).isEqualTo(Duration.ofMinutes(30));
    assertThat(policy.source(PolicyKey.COMPACT_MIN_INTERVAL)).hasToString("namespace:a.b");
    assertThat(policy.orphansInterval()).isEqualTo(Duration.ofDays(2));
    assertThat(policy.source(PolicyKey.ORPHANS_INTERVAL)).hasToString("namespace:a");
    assertThat(policy.compactOptions())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("partial-progress.enabled", "true", "min-input-files", "3"));
    assertThat(policy.targetFileSize()).isEmpty();
    EffectivePolicy withTargetOption =
        new PolicyResolver(file)
            .resolve(
                TableIdentifier.of(Namespace.of("a", "b"), "t"),
                Map.of("lakeops.compact.options.target-file-size-bytes", "1048576"));
    assertThat(withTargetOption.targetFileSize()).contains(ByteSize.ofMegabytes(1));
    assertThat(withTargetOption.compactOptionSources().get("target-file-size-bytes"))
        .hasToString("table-property:lakeops.compact.options.target-file-size-bytes");
  }

  @Test
  void defaultsWithoutAPolicyFile() {
    EffectivePolicy policy = EffectivePolicy.defaults(EVENTS);

    for (PolicyKey key : PolicyKey.values()) {
      assertThat(policy.source(key)).isEqualTo(PolicySource.DEFAULT);
      assertThat(policy.text(key)).isEqualTo(key.defaultText());
    }
    assertThat(policy.orphansOlderThan()).isEqualTo(Duration.ofDays(3));
    assertThat(policy.orphansInterval()).isEqualTo(Duration.ofDays(1));
    assertThat(policy.targetFileSize()).isEmpty();
    assertThat(PolicyFile.empty().lakeSettings())
        .isEqualTo(new LakeSettings(2, ByteSize.parse("1GB"), Optional.empty()));
  }

  @Test
  void unknownKeyNamesTheFileTheKeyTheSectionAndTheValidKeys() {
    assertThatThrownBy(
            () ->
                PolicyFile.parse(
                    "tables:\n  db.events:\n    compact.min-smal-files: 3\n", "policy.yaml"))
        .isInstanceOf(PolicyException.class)
        .hasMessageStartingWith(
            "policy.yaml: unknown key 'compact.min-smal-files' in tables.db.events (did you mean"
                + " 'compact.min-small-files'?); valid keys: enabled, poll-interval,")
        .hasMessageContaining("compact.options.<rewrite option>")
        .hasMessageNotContaining("\n");
  }

  @Test
  void badValueNamesTheFileTheKeyAndTheChoices() {
    assertThatThrownBy(
            () -> PolicyFile.parse("catalog:\n  compact:\n    strategy: fast\n", "policy.yaml"))
        .isInstanceOf(PolicyException.class)
        .hasMessage(
            "policy.yaml: compact.strategy in catalog: 'fast' is not one of binpack|sort|zorder|auto");
    assertThatThrownBy(() -> PolicyFile.parse("catalog:\n  poll-interval: soon\n", "p.yaml"))
        .hasMessage(
            "p.yaml: poll-interval in catalog: 'soon' is not a duration such as 30s, 10m, 12h or 7d");
    assertThatThrownBy(
            () -> PolicyFile.parse("catalog:\n  compact.target-file-size: big\n", "p.yaml"))
        .hasMessage(
            "p.yaml: compact.target-file-size in catalog: 'big' is not a size such as 512MB or 1GB, or 'none'");
    assertThatThrownBy(
            () -> PolicyFile.parse("catalog:\n  compact.small-file-ratio: 1.5\n", "p.yaml"))
        .hasMessage(
            "p.yaml: compact.small-file-ratio in catalog: '1.5' is not a number in (0, 1], e.g. 0.75");
    assertThatThrownBy(() -> PolicyFile.parse("catalog:\n  expire.retain-last: 0\n", "p.yaml"))
        .hasMessage("p.yaml: expire.retain-last in catalog: '0' is not a whole number, at least 1");
    assertThatThrownBy(() -> PolicyFile.parse("catalog:\n  orphans.older-than: 1d\n", "p.yaml"))
        .hasMessage(
            "p.yaml: orphans.older-than in catalog: '1d' is below the 3d safety floor (files of writes in"
                + " progress could be deleted)");
  }

  @Test
  void structuralMistakesAreOneLineEach() {
    assertThatThrownBy(() -> PolicyFile.parse("catalogue:\n  enabled: true\n", "p.yaml"))
        .hasMessage(
            "p.yaml: unknown section 'catalogue'; valid sections: catalog, namespaces, tables");
    assertThatThrownBy(
            () -> PolicyFile.parse("namespaces:\n  db:\n    max-concurrent-tables: 3\n", "p.yaml"))
        .hasMessage(
            "p.yaml: max-concurrent-tables in namespaces.db is lake-wide: set it in the policy file's catalog:"
                + " section");
    assertThatThrownBy(() -> PolicyFile.parse("tables:\n  events:\n    enabled: false\n", "p.yaml"))
        .hasMessage(
            "p.yaml: table 'events' in tables must be written namespace.table, e.g. db.events");
    assertThatThrownBy(
            () ->
                PolicyFile.parse(
                    "catalog:\n  compact.min-small-files: 3\n  compact: {min-small-files: 4}\n",
                    "p.yaml"))
        .hasMessage("p.yaml: compact.min-small-files is set twice in catalog");
    assertThatThrownBy(
            () -> PolicyFile.parse("catalog:\n  compact.options.min-input-file: 3\n", "p.yaml"))
        .hasMessageStartingWith(
            "p.yaml: unknown rewrite option 'compact.options.min-input-file' in catalog (did you mean"
                + " 'compact.options.min-input-files'?); valid options: ");
    assertThatThrownBy(
            () -> PolicyFile.parse("catalog:\n  compact.options.min-input-files: many\n", "p.yaml"))
        .hasMessage(
            "p.yaml: compact.options.min-input-files in catalog: 'many' is not a whole number, at least 0");
    assertThatThrownBy(
            () ->
                PolicyFile.parse(
                    "catalog:\n  compact: {options: {partial-progress: {enabled: maybe}}}\n",
                    "p.yaml"))
        .hasMessage(
            "p.yaml: compact.options.partial-progress.enabled in catalog: 'maybe' is not one of true|false");
    assertThatThrownBy(() -> PolicyFile.parse("catalog:\n  enabled: [true]\n", "p.yaml"))
        .hasMessage("p.yaml: enabled in catalog must be a single value, not a list");
    assertThatThrownBy(
            () -> PolicyFile.parse("catalog:\n  enabled: true\n enabled: false\n", "p.yaml"))
        .isInstanceOf(PolicyException.class)
        .hasMessageStartingWith("p.yaml: not valid YAML (line ");
    assertThatThrownBy(() -> PolicyFile.load(directory.resolve("missing.yaml")))
        .hasMessage(directory.resolve("missing.yaml") + ": no such policy file");
  }

  @Test
  void badTablePropertyNamesTheTableAndTheProperty() {
    PolicyResolver resolver = new PolicyResolver(PolicyFile.empty());

    assertThatThrownBy(() -> resolver.resolve(EVENTS, Map.of("lakeops.compact.strategy", "fast")))
        .isInstanceOf(PolicyException.class)
        .hasMessage(
            "table db.events: lakeops.compact.strategy: 'fast' is not one of binpack|sort|zorder|auto");
    assertThatThrownBy(() -> resolver.resolve(EVENTS, Map.of("lakeops.expire.older-then", "2d")))
        .hasMessageStartingWith(
            "table db.events: unknown key 'lakeops.expire.older-then' (did you mean 'lakeops.expire.older-than'?);"
                + " valid keys: enabled,")
        .hasMessageNotContaining("max-concurrent-tables");
    assertThatThrownBy(() -> resolver.resolve(EVENTS, Map.of("lakeops.memory", "2GB")))
        .hasMessage(
            "table db.events: lakeops.memory is lake-wide: set it in the policy file's catalog: section");
    assertThat(
            resolver
                .resolve(EVENTS, Map.of("lakeops.lock.owner", "spark-1", "lakeops.operation", "x"))
                .enabled())
        .as("LakeOps' own non-policy table properties are left alone")
        .isTrue();
  }

  @Test
  void pollIntervalLongerThanAnExplicitMaximumIsRefused() {
    PolicyFile file =
        PolicyFile.parse("catalog:\n  poll-interval: 1h\n  max-poll-interval: 30m\n", "p.yaml");

    assertThatThrownBy(() -> new PolicyResolver(file).resolve(EVENTS, Map.of()))
        .isInstanceOf(PolicyException.class)
        .hasMessage(
            "table db.events: poll-interval 1h (from catalog) is longer than max-poll-interval 30m (from catalog);"
                + " raise max-poll-interval");
    EffectivePolicy onlyPollInterval =
        new PolicyResolver(PolicyFile.parse("catalog:\n  poll-interval: 1h\n", "p.yaml"))
            .resolve(EVENTS, Map.of());
    assertThat(onlyPollInterval.maxPollInterval()).isEqualTo(Duration.ofHours(1));
  }

  @Test
  void emptyFileIsTheDefaultPolicy() throws Exception {
    Path file = directory.resolve("empty.yaml");
    Files.writeString(file, "# nothing yet\n");

    EffectivePolicy policy = new PolicyResolver(PolicyFile.load(file)).resolve(EVENTS, Map.of());

    assertThat(policy.minSmallFiles()).isEqualTo(12);
    assertThat(policy.source(PolicyKey.COMPACT_MIN_SMALL_FILES)).isEqualTo(PolicySource.DEFAULT);
  }
}
