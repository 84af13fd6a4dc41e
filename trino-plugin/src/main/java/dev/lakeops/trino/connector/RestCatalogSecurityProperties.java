package dev.lakeops.trino.connector;

import static dev.lakeops.trino.connector.LakeOpsErrorCode.LAKEOPS_INVALID_CONFIGURATION;

import io.trino.spi.TrinoException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The Iceberg Java REST catalog properties for Trino's {@code iceberg.rest-catalog.*} prefix,
 * security and credential vending keys, as Trino's Iceberg connector passes them to Iceberg.
 */
final class RestCatalogSecurityProperties {
  private RestCatalogSecurityProperties() {}

  /** {@code region} is {@code s3.region}: Trino signs SigV4 requests for it. */
  static Map<String, String> of(RestCatalogSecurityConfig config, Optional<String> region) {
    Map<String, String> properties = new LinkedHashMap<>();
    config.getPrefix().ifPresent(prefix -> properties.put("prefix", prefix));
    switch (config.getSecurity()) {
      case NONE -> {}
      case OAUTH2 -> {
        if (config.getOauth2Token().isEmpty() && config.getOauth2Credential().isEmpty()) {
          throw new TrinoException(
              LAKEOPS_INVALID_CONFIGURATION,
              "iceberg.rest-catalog.security=OAUTH2 needs iceberg.rest-catalog.oauth2.token or iceberg.rest-catalog.oauth2.credential");
        }
        properties.put("rest.auth.type", "oauth2");
        config.getOauth2Token().ifPresent(token -> properties.put("token", token));
        config
            .getOauth2Credential()
            .ifPresent(credential -> properties.put("credential", credential));
        config.getOauth2Scope().ifPresent(scope -> properties.put("scope", scope));
        config.getOauth2ServerUri().ifPresent(uri -> properties.put("oauth2-server-uri", uri));
        properties.put(
            "token-refresh-enabled", String.valueOf(config.isOauth2TokenRefreshEnabled()));
        properties.put(
            "token-exchange-enabled", String.valueOf(config.isOauth2TokenExchangeEnabled()));
      }
      case SIGV4 -> {
        properties.put("rest.auth.type", "sigv4");
        properties.put("rest.signing-name", config.getSigningName());
        region.ifPresent(name -> properties.put("rest.signing-region", name));
      }
      case GOOGLE ->
          throw new TrinoException(
              LAKEOPS_INVALID_CONFIGURATION,
              "iceberg.rest-catalog.security=GOOGLE is not supported by the lakeops connector: use OAUTH2 with a token, "
                  + "or set lakeops.iceberg.rest.auth.type and its properties");
    }
    if (config.isVendedCredentialsEnabled()) {
      properties.put("header.X-Iceberg-Access-Delegation", "vended-credentials");
    }
    return properties;
  }
}
