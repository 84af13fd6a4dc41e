package dev.lakeops.maintain.orphan;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.maintain.files.ListedFile;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class OrphanSweeperTest {
  private static final Instant NOW = Instant.parse("2026-12-01T00:00:00Z");
  private static final Instant CUTOFF = NOW.minus(Duration.ofDays(3));
  private static final Instant OLD = NOW.minus(Duration.ofDays(30));

  private static ReferencedFileIndex index() {
    ReferencedFileIndex index = new ReferencedFileIndex();
    index.add("s3://bucket-a/t/data/referenced.parquet");
    index.add("/local/t/data/no-scheme.parquet");
    return index;
  }

  private static OrphanPlan sweep(
      PrefixMismatchMode mode, Map<String, String> authorities, ListedFile... files) {
    PrefixMatcher matcher =
        new PrefixMatcher(OrphanRemovalOptions.DEFAULT_EQUAL_SCHEMES, authorities);
    return new OrphanSweeper(index(), matcher, mode, CUTOFF).sweep(Stream.of(files));
  }

  private static ListedFile old(String location) {
    return new ListedFile(location, 1, OLD);
  }

  @Test
  void sameFileUnderAnEqualSchemeIsReferenced() {
    OrphanPlan plan =
        sweep(PrefixMismatchMode.ERROR, Map.of(), old("s3a://bucket-a/t/data/referenced.parquet"));
    assertThat(plan.orphans()).isEmpty();
    assertThat(plan.mismatches()).isEmpty();
  }

  @Test
  void referencedLocationWithoutSchemeMatchesAnyScheme() {
    OrphanPlan plan =
        sweep(PrefixMismatchMode.ERROR, Map.of(), old("file:/local/t/data/no-scheme.parquet"));
    assertThat(plan.orphans()).isEmpty();
    assertThat(plan.mismatches()).isEmpty();
  }

  @Test
  void otherAuthorityIsAMismatchThatEachModeTreatsItsWay() {
    ListedFile other = old("s3://bucket-b/t/data/referenced.parquet");
    assertThat(sweep(PrefixMismatchMode.ERROR, Map.of(), other).mismatches()).hasSize(1);
    assertThat(sweep(PrefixMismatchMode.ERROR, Map.of(), other).orphans()).isEmpty();
    assertThat(sweep(PrefixMismatchMode.IGNORE, Map.of(), other).orphans()).isEmpty();
    assertThat(sweep(PrefixMismatchMode.DELETE, Map.of(), other).orphans())
        .containsExactly(other.location());
    OrphanPlan equal = sweep(PrefixMismatchMode.ERROR, Map.of("bucket-b", "bucket-a"), other);
    assertThat(equal.mismatches()).isEmpty();
    assertThat(equal.orphans()).isEmpty();
  }

  @Test
  void newFilesAreNeverOrphans() {
    OrphanPlan plan =
        sweep(
            PrefixMismatchMode.DELETE,
            Map.of(),
            new ListedFile("s3://bucket-a/t/data/new.parquet", 1, CUTOFF),
            new ListedFile("s3://bucket-b/t/data/referenced.parquet", 1, NOW),
            old("s3://bucket-a/t/data/lost.parquet"));
    assertThat(plan.orphans()).containsExactly("s3://bucket-a/t/data/lost.parquet");
    assertThat(plan.tooNewFiles()).isEqualTo(2);
    assertThat(plan.listedFiles()).isEqualTo(3);
  }
}
