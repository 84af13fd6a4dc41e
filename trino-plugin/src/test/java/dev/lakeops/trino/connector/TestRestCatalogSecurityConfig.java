package dev.lakeops.trino.connector;

import static io.airlift.configuration.testing.ConfigAssertions.assertFullMapping;
import static io.airlift.configuration.testing.ConfigAssertions.assertRecordedDefaults;
import static io.airlift.configuration.testing.ConfigAssertions.recordDefaults;

import com.google.common.collect.ImmutableMap;
import dev.lakeops.trino.connector.RestCatalogSecurityConfig.Security;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TestRestCatalogSecurityConfig {
  @Test
  void defaults() {
    assertRecordedDefaults(
        recordDefaults(RestCatalogSecurityConfig.class)
            .setPrefix(null)
            .setSecurity(Security.NONE)
            .setOauth2Token(null)
            .setOauth2Credential(null)
            .setOauth2Scope(null)
            .setOauth2ServerUri(null)
            .setOauth2TokenRefreshEnabled(true)
            .setOauth2TokenExchangeEnabled(true)
            .setSigningName("execute-api")
            .setVendedCredentialsEnabled(false));
  }

  @Test
  void explicitPropertyMappings() {
    Map<String, String> properties =
        ImmutableMap.<String, String>builder()
            .put("iceberg.rest-catalog.prefix", "warehouse-1")
            .put("iceberg.rest-catalog.security", "OAUTH2")
            .put("iceberg.rest-catalog.oauth2.token", "token-1")
            .put("iceberg.rest-catalog.oauth2.credential", "client:secret")
            .put("iceberg.rest-catalog.oauth2.scope", "PRINCIPAL_ROLE:ALL")
            .put("iceberg.rest-catalog.oauth2.server-uri", "http://127.0.0.1:8181/oauth/tokens")
            .put("iceberg.rest-catalog.oauth2.token-refresh-enabled", "false")
            .put("iceberg.rest-catalog.oauth2.token-exchange-enabled", "false")
            .put("iceberg.rest-catalog.signing-name", "glue")
            .put("iceberg.rest-catalog.vended-credentials-enabled", "true")
            .buildOrThrow();
    assertFullMapping(
        properties,
        new RestCatalogSecurityConfig()
            .setPrefix("warehouse-1")
            .setSecurity(Security.OAUTH2)
            .setOauth2Token("token-1")
            .setOauth2Credential("client:secret")
            .setOauth2Scope("PRINCIPAL_ROLE:ALL")
            .setOauth2ServerUri("http://127.0.0.1:8181/oauth/tokens")
            .setOauth2TokenRefreshEnabled(false)
            .setOauth2TokenExchangeEnabled(false)
            .setSigningName("glue")
            .setVendedCredentialsEnabled(true));
  }
}
