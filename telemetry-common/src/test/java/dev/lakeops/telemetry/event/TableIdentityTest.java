package dev.lakeops.telemetry.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class TableIdentityTest {
  @Test
  void normalizesLocalLocationsToOneSpellingAndKeepsOtherSchemes() {
    assertThat(TableIdentity.normalizeLocation("file:/w/db/t")).isEqualTo("/w/db/t");
    assertThat(TableIdentity.normalizeLocation("file:///w/db/t/")).isEqualTo("/w/db/t");
    assertThat(TableIdentity.normalizeLocation("/w/db/t//")).isEqualTo("/w/db/t");
    assertThat(TableIdentity.normalizeLocation("s3://bucket/w/db/t/"))
        .isEqualTo("s3://bucket/w/db/t");
  }

  @Test
  void lowerCasesUuidsAndTreatsBlanksAsUnknown() {
    TableIdentity identity = TableIdentity.of("6F1C3A52-0B7E-4C59-9D55-1F0E8A4B2C11", " ");

    assertThat(identity.uuid()).contains("6f1c3a52-0b7e-4c59-9d55-1f0e8a4b2c11");
    assertThat(identity.location()).isEqualTo(Optional.empty());
    assertThat(identity.isKnown()).isTrue();
    assertThat(TableIdentity.unknown().isKnown()).isFalse();
  }
}
