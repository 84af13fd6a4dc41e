package dev.lakeops.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SessionTableNameTest {
  @Test
  void quotesEveryPartForSpark() {
    SessionTableName name = new SessionTableName("cat", List.of("db", "we`ird"), "t");

    assertThat(name.quoted()).isEqualTo("`cat`.`db`.`we``ird`.`t`");
    assertThat(name).hasToString("cat.db.we`ird.t");
  }
}
