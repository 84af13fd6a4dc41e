package dev.lakeops.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.compact.Strategy;
import org.junit.jupiter.api.Test;

class VerificationModeTest {
  @Test
  void sortAndZorderChecksumAndBinpackCountsUnlessAsked() {
    assertThat(CompactionRequest.binpack().verificationMode()).isEqualTo(VerificationMode.COUNTS);
    assertThat(CompactionRequest.builder().strategy(Strategy.SORT).build().verificationMode())
        .isEqualTo(VerificationMode.CHECKSUM);
    assertThat(CompactionRequest.builder().strategy(Strategy.ZORDER).build().verificationMode())
        .isEqualTo(VerificationMode.CHECKSUM);
    assertThat(
            CompactionRequest.builder()
                .strategy(Strategy.SORT)
                .verify(" Counts ")
                .build()
                .verificationMode())
        .isEqualTo(VerificationMode.COUNTS);
    assertThat(CompactionRequest.builder().verify("off").build().verificationMode())
        .isEqualTo(VerificationMode.OFF);
    assertThat(CompactionRequest.builder().verify("").build().verify()).isEmpty();
  }

  @Test
  void anUnknownModeNamesTheValueAndTheChoices() {
    assertThatThrownBy(() -> VerificationMode.parse("full"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Invalid verify value 'full': use one of counts, checksum, off");
  }
}
