package dev.lakeops.trino.connector;

import io.airlift.configuration.Config;
import io.airlift.configuration.ConfigDescription;
import io.airlift.configuration.ConfigSecuritySensitive;
import jakarta.validation.constraints.NotNull;
import java.util.Optional;

/**
 * The REST catalog keys of Trino's Iceberg connector beyond the URI and warehouse: path prefix,
 * authentication and credential vending, under the same names ({@code iceberg.rest-catalog.*}).
 */
public class RestCatalogSecurityConfig {
  /** {@code iceberg.rest-catalog.security}, as in Trino's Iceberg connector. */
  public enum Security {
    NONE,
    OAUTH2,
    SIGV4,
    GOOGLE
  }

  private String prefix;
  private Security security = Security.NONE;
  private String oauth2Token;
  private String oauth2Credential;
  private String oauth2Scope;
  private String oauth2ServerUri;
  private boolean oauth2TokenRefreshEnabled = true;
  private boolean oauth2TokenExchangeEnabled = true;
  private String signingName = "execute-api";
  private boolean vendedCredentialsEnabled;

  public Optional<String> getPrefix() {
    return Optional.ofNullable(prefix);
  }

  @Config("iceberg.rest-catalog.prefix")
  @ConfigDescription("Path prefix of the REST catalog's endpoints")
  public RestCatalogSecurityConfig setPrefix(String prefix) {
    this.prefix = prefix;
    return this;
  }

  @NotNull
  public Security getSecurity() {
    return security;
  }

  @Config("iceberg.rest-catalog.security")
  @ConfigDescription("Authentication of the REST catalog: NONE, OAUTH2 or SIGV4")
  public RestCatalogSecurityConfig setSecurity(Security security) {
    this.security = security;
    return this;
  }

  public Optional<String> getOauth2Token() {
    return Optional.ofNullable(oauth2Token);
  }

  @Config("iceberg.rest-catalog.oauth2.token")
  @ConfigSecuritySensitive
  public RestCatalogSecurityConfig setOauth2Token(String oauth2Token) {
    this.oauth2Token = oauth2Token;
    return this;
  }

  public Optional<String> getOauth2Credential() {
    return Optional.ofNullable(oauth2Credential);
  }

  @Config("iceberg.rest-catalog.oauth2.credential")
  @ConfigSecuritySensitive
  public RestCatalogSecurityConfig setOauth2Credential(String oauth2Credential) {
    this.oauth2Credential = oauth2Credential;
    return this;
  }

  public Optional<String> getOauth2Scope() {
    return Optional.ofNullable(oauth2Scope);
  }

  @Config("iceberg.rest-catalog.oauth2.scope")
  public RestCatalogSecurityConfig setOauth2Scope(String oauth2Scope) {
    this.oauth2Scope = oauth2Scope;
    return this;
  }

  public Optional<String> getOauth2ServerUri() {
    return Optional.ofNullable(oauth2ServerUri);
  }

  @Config("iceberg.rest-catalog.oauth2.server-uri")
  public RestCatalogSecurityConfig setOauth2ServerUri(String oauth2ServerUri) {
    this.oauth2ServerUri = oauth2ServerUri;
    return this;
  }

  public boolean isOauth2TokenRefreshEnabled() {
    return oauth2TokenRefreshEnabled;
  }

  @Config("iceberg.rest-catalog.oauth2.token-refresh-enabled")
  public RestCatalogSecurityConfig setOauth2TokenRefreshEnabled(boolean oauth2TokenRefreshEnabled) {
    this.oauth2TokenRefreshEnabled = oauth2TokenRefreshEnabled;
    return this;
  }

  public boolean isOauth2TokenExchangeEnabled() {
    return oauth2TokenExchangeEnabled;
  }

  @Config("iceberg.rest-catalog.oauth2.token-exchange-enabled")
  public RestCatalogSecurityConfig setOauth2TokenExchangeEnabled(
      boolean oauth2TokenExchangeEnabled) {
    this.oauth2TokenExchangeEnabled = oauth2TokenExchangeEnabled;
    return this;
  }

  @NotNull
  public String getSigningName() {
    return signingName;
  }

  @Config("iceberg.rest-catalog.signing-name")
  @ConfigDescription("AWS SigV4 signing name of the REST catalog when security=SIGV4")
  public RestCatalogSecurityConfig setSigningName(String signingName) {
    this.signingName = signingName;
    return this;
  }

  public boolean isVendedCredentialsEnabled() {
    return vendedCredentialsEnabled;
  }

  @Config("iceberg.rest-catalog.vended-credentials-enabled")
  @ConfigDescription(
      "Ask the REST catalog for table credentials (X-Iceberg-Access-Delegation: vended-credentials)")
  public RestCatalogSecurityConfig setVendedCredentialsEnabled(boolean vendedCredentialsEnabled) {
    this.vendedCredentialsEnabled = vendedCredentialsEnabled;
    return this;
  }
}
