package dev.lakeops.trino.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.catalog.CatalogSettings;
import dev.lakeops.trino.connector.RestCatalogSecurityConfig.Security;
import io.trino.spi.TrinoException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Trino Iceberg catalog keys become the Iceberg Java properties Trino's Iceberg connector passes.
 */
class TestIcebergCatalogProperties {
  @Test
  void restCatalogWithOauth2VendedCredentialsAndNativeS3() {
    LakeOpsConfig config =
        new LakeOpsConfig()
            .setCatalogType(CatalogType.REST)
            .setRestCatalogUri("http://127.0.0.1:8181")
            .setRestCatalogWarehouse("lake");
    RestCatalogSecurityConfig security =
        new RestCatalogSecurityConfig()
            .setPrefix("ws")
            .setSecurity(Security.OAUTH2)
            .setOauth2Credential("client:secret")
            .setOauth2Scope("PRINCIPAL_ROLE:ALL")
            .setOauth2ServerUri("http://127.0.0.1:8181/oauth/tokens")
            .setVendedCredentialsEnabled(true);
    S3FileSystemConfig s3 =
        new S3FileSystemConfig()
            .setNativeS3Enabled(true)
            .setEndpoint("http://127.0.0.1:9000")
            .setRegion("eu-west-1")
            .setPathStyleAccess(true)
            .setAwsAccessKey("access")
            .setAwsSecretKey("secret");

    CatalogSettings settings =
        IcebergCatalogProperties.settings(
            "lakeops", config, security, s3, Map.of("s3.endpoint", "http://127.0.0.1:9001"));

    assertThat(settings.name()).isEqualTo("lakeops");
    assertThat(settings.properties())
        .containsExactlyInAnyOrderEntriesOf(
            Map.ofEntries(
                Map.entry("catalog-impl", "org.apache.iceberg.rest.RESTCatalog"),
                Map.entry("uri", "http://127.0.0.1:8181"),
                Map.entry("warehouse", "lake"),
                Map.entry("prefix", "ws"),
                Map.entry("rest.auth.type", "oauth2"),
                Map.entry("credential", "client:secret"),
                Map.entry("scope", "PRINCIPAL_ROLE:ALL"),
                Map.entry("oauth2-server-uri", "http://127.0.0.1:8181/oauth/tokens"),
                Map.entry("token-refresh-enabled", "true"),
                Map.entry("token-exchange-enabled", "true"),
                Map.entry("header.X-Iceberg-Access-Delegation", "vended-credentials"),
                Map.entry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO"),
                // lakeops.iceberg.* wins over the mapped keys
                Map.entry("s3.endpoint", "http://127.0.0.1:9001"),
                Map.entry("client.region", "eu-west-1"),
                Map.entry("s3.path-style-access", "true"),
                Map.entry("s3.access-key-id", "access"),
                Map.entry("s3.secret-access-key", "secret")));
  }

  @Test
  void jdbcCatalogUsesTrinosDefaultSchemaVersion() {
    LakeOpsConfig config =
        new LakeOpsConfig()
            .setCatalogType(CatalogType.JDBC)
            .setJdbcConnectionUrl("jdbc:postgresql://127.0.0.1:5432/test")
            .setJdbcCatalogName("lake");

    CatalogSettings settings =
        IcebergCatalogProperties.settings(
            "lakeops", config, new RestCatalogSecurityConfig(), new S3FileSystemConfig(), Map.of());

    assertThat(settings.properties()).containsEntry("jdbc.schema-version", "V1");
  }

  @Test
  void restCatalogWithSigV4SignsForTheS3Region() {
    LakeOpsConfig config =
        new LakeOpsConfig()
            .setCatalogType(CatalogType.REST)
            .setRestCatalogUri("https://glue.eu-west-1.amazonaws.com/iceberg");

    CatalogSettings settings =
        IcebergCatalogProperties.settings(
            "lakeops",
            config,
            new RestCatalogSecurityConfig().setSecurity(Security.SIGV4).setSigningName("glue"),
            new S3FileSystemConfig().setRegion("eu-west-1"),
            Map.of());

    assertThat(settings.properties())
        .containsEntry("rest.auth.type", "sigv4")
        .containsEntry("rest.signing-name", "glue")
        .containsEntry("rest.signing-region", "eu-west-1")
        .doesNotContainKey("io-impl");
  }

  @Test
  void jdbcCatalogKeysMapOntoJdbcCatalogProperties() {
    LakeOpsConfig config =
        new LakeOpsConfig()
            .setCatalogType(CatalogType.JDBC)
            .setJdbcConnectionUrl("jdbc:postgresql://127.0.0.1:5432/test")
            .setJdbcConnectionUser("trino")
            .setJdbcConnectionPassword("secret")
            .setJdbcCatalogName("lake")
            .setJdbcDefaultWarehouseDir("s3://bucket/warehouse")
            .setJdbcSchemaVersion("V1")
            .setJdbcRetryableStatusCodes("57000,57P01");

    CatalogSettings settings =
        IcebergCatalogProperties.settings(
            "lakeops", config, new RestCatalogSecurityConfig(), new S3FileSystemConfig(), Map.of());

    assertThat(settings.name()).isEqualTo("lake");
    assertThat(settings.properties())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "catalog-impl", "org.apache.iceberg.jdbc.JdbcCatalog",
                "uri", "jdbc:postgresql://127.0.0.1:5432/test",
                "jdbc.user", "trino",
                "jdbc.password", "secret",
                "warehouse", "s3://bucket/warehouse",
                "jdbc.schema-version", "V1",
                "retryable_status_codes", "57000,57P01"));
  }

  @Test
  void oauth2WithoutTokenOrCredentialIsAConfigurationError() {
    LakeOpsConfig config =
        new LakeOpsConfig()
            .setCatalogType(CatalogType.REST)
            .setRestCatalogUri("http://127.0.0.1:8181");

    assertThatThrownBy(
            () ->
                IcebergCatalogProperties.settings(
                    "lakeops",
                    config,
                    new RestCatalogSecurityConfig().setSecurity(Security.OAUTH2),
                    new S3FileSystemConfig(),
                    Map.of()))
        .isInstanceOf(TrinoException.class)
        .hasMessage(
            "iceberg.rest-catalog.security=OAUTH2 needs iceberg.rest-catalog.oauth2.token or iceberg.rest-catalog.oauth2.credential");
  }

  @Test
  void googleSecurityIsRefusedWithTheAlternative() {
    LakeOpsConfig config =
        new LakeOpsConfig()
            .setCatalogType(CatalogType.REST)
            .setRestCatalogUri("http://127.0.0.1:8181");

    assertThatThrownBy(
            () ->
                IcebergCatalogProperties.settings(
                    "lakeops",
                    config,
                    new RestCatalogSecurityConfig().setSecurity(Security.GOOGLE),
                    new S3FileSystemConfig(),
                    Map.of()))
        .isInstanceOf(TrinoException.class)
        .hasMessageStartingWith(
            "iceberg.rest-catalog.security=GOOGLE is not supported by the lakeops connector");
  }
}
