package dev.lakeops.trino.redact;

import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_CATALOG_ERROR;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.common.base.Throwables;
import io.trino.spi.TrinoException;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestSecretRedactor {
  private final SecretRedactor redactor =
      SecretRedactor.forProperties(
          Map.of(
              "uri", "jdbc:postgresql://127.0.0.1:5432/test",
              "jdbc.user", "trino",
              "jdbc.password", "pg-Pa55word",
              "s3.access-key-id", "AKIAEXAMPLE",
              "s3.secret-access-key", "wJalrXUtnFEMI/K7MDENG",
              "token", "eyJhbGciOi.payload.sig",
              "credential", "client:client-secret"));

  @Test
  void configuredSecretValuesAreMaskedWherever() {
    assertThat(
            redactor.redact(
                "login with pg-Pa55word failed; key AKIAEXAMPLE / wJalrXUtnFEMI/K7MDENG; token eyJhbGciOi.payload.sig"))
        .isEqualTo("login with *** failed; key *** / ***; token ***");
    assertThat(redactor.redact("credential client:client-secret refused"))
        .isEqualTo("credential *** refused");
    // not a secret: the user name and the URL without credentials stay, they say what failed
    assertThat(redactor.redact("user trino at jdbc:postgresql://127.0.0.1:5432/test"))
        .isEqualTo("user trino at jdbc:postgresql://127.0.0.1:5432/test");
  }

  @Test
  void urlUserInfoAndSecretParametersAreMaskedWhateverTheirValue() {
    SecretRedactor none = SecretRedactor.forProperties(Map.of());
    assertThat(none.redact("jdbc:postgresql://admin:hunter2@db.internal:5432/lake?sslmode=require"))
        .isEqualTo("jdbc:postgresql://admin:***@db.internal:5432/lake?sslmode=require");
    assertThat(none.redact("jdbc:postgresql://db/lake?user=trino&password=hunter2&ssl=true"))
        .isEqualTo("jdbc:postgresql://db/lake?user=trino&password=***&ssl=true");
    assertThat(none.redact("jdbc:sqlserver://db;user=sa;Password=hunter2;encrypt=true"))
        .isEqualTo("jdbc:sqlserver://db;user=sa;Password=***;encrypt=true");
    assertThat(
            none.redact(
                "https://bucket.s3.amazonaws.com/k?X-Amz-Signature=abc123&X-Amz-Security-Token=tok&x=1"))
        .isEqualTo(
            "https://bucket.s3.amazonaws.com/k?X-Amz-Signature=***&X-Amz-Security-Token=***&x=1");
    assertThat(none.redact("http://rest:8181/v1/config?token=abc&secret_key=def"))
        .isEqualTo("http://rest:8181/v1/config?token=***&secret_key=***");
    assertThat(none.redact("Authorization: Bearer abc.def-ghi"))
        .isEqualTo("Authorization: Bearer ***");
    assertThat(none.redact("s3://bucket/warehouse/db/t/data/x.parquet"))
        .isEqualTo("s3://bucket/warehouse/db/t/data/x.parquet");
  }

  @Test
  void anErrorKeepsItsCodeAndLosesSecretsInItsWholeCauseChain() {
    SQLException root =
        new SQLException(
            "FATAL: password authentication failed for jdbc:postgresql://trino:pg-Pa55word@db/test");
    RuntimeException middle =
        new RuntimeException("Cannot connect with password=pg-Pa55word", root);
    middle.addSuppressed(
        new IllegalStateException("close failed for secret wJalrXUtnFEMI/K7MDENG"));
    TrinoException failure =
        new TrinoException(LAKEOPS_CATALOG_ERROR, "Cannot load table db.t: pg-Pa55word", middle);

    TrinoException redacted = redactor.redact(failure);

    assertThat(redacted.getErrorCode()).isEqualTo(LAKEOPS_CATALOG_ERROR.toErrorCode());
    assertThat(redacted.getMessage()).isEqualTo("Cannot load table db.t: ***");
    String everything = Throwables.getStackTraceAsString(redacted);
    assertThat(everything)
        .doesNotContain("pg-Pa55word", "wJalrXUtnFEMI")
        .contains("java.lang.RuntimeException: Cannot connect with password=***")
        .contains(
            "java.sql.SQLException: FATAL: password authentication failed for jdbc:postgresql://trino:***@db/test")
        .contains("java.lang.IllegalStateException: close failed for secret ***");
    assertThat(redacted.getStackTrace()).isEqualTo(failure.getStackTrace());
  }

  @Test
  void secretPropertyNamesAreRecognised() {
    assertThat(SecretRedactor.isSecretProperty("jdbc.password")).isTrue();
    assertThat(SecretRedactor.isSecretProperty("s3.secret-access-key")).isTrue();
    assertThat(SecretRedactor.isSecretProperty("s3.access-key-id")).isTrue();
    assertThat(SecretRedactor.isSecretProperty("rest.auth.oauth2.token")).isTrue();
    assertThat(SecretRedactor.isSecretProperty("uri")).isFalse();
    assertThat(SecretRedactor.isSecretProperty("jdbc.user")).isFalse();
  }
}
