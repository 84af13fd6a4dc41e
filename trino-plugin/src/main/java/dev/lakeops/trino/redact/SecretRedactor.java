package dev.lakeops.trino.redact;

import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableList;
import io.trino.spi.ErrorCode;
import io.trino.spi.TrinoException;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Takes credentials out of what a query user sees: every error the plugin raises passes through
 * {@link #redact(TrinoException)}, which rewrites its message and the messages of its whole cause
 * chain (Trino sends the chain to the client). Removed are the values of the catalog's secret
 * properties (passwords, secret keys, tokens, credentials), the password of a URL's user info
 * ({@code //user:***@host}), {@code password=}, {@code token=}, {@code secret=}-style URL and
 * connection-string parameters, and bearer tokens.
 */
public final class SecretRedactor {
  public static final String MASK = "***";

  /**
   * Property names whose values are secrets: passwords, secret and access keys, tokens,
   * credentials.
   */
  private static final Pattern SECRET_PROPERTY =
      Pattern.compile(
          "(?i).*(password|passwd|secret|token|credential|access-key|access_key|accesskey|session-key|api-key|apikey).*");

  private static final Pattern USER_INFO =
      Pattern.compile("(?<prefix>[a-zA-Z][a-zA-Z0-9+.-]*://[^/@\\s:?#]+:)[^/@\\s?#]+@");
  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?i)(?<key>\\b(?:password|passwd|pwd|secret|secret[-_]?key|secret[-_]?access[-_]?key|access[-_]?token"
              + "|refresh[-_]?token|token|credential|api[-_]?key|sig|signature|x-amz-signature|x-amz-security-token)\\s*[=:]\\s*)"
              + "(?<value>[^&;,\\s)'\"]+)");
  private static final Pattern BEARER =
      Pattern.compile("(?i)(?<key>\\bbearer\\s+)(?<value>[A-Za-z0-9._~+/=-]+)");

  /**
   * Values this short would mask ordinary words; they are still masked where a pattern finds them.
   */
  private static final int MIN_SECRET_LENGTH = 4;

  private final ImmutableList<String> secrets;

  private SecretRedactor(ImmutableList<String> secrets) {
    this.secrets = requireNonNull(secrets, "secrets is null");
  }

  /** A redactor that also masks the values of the secret properties among {@code properties}. */
  public static SecretRedactor forProperties(Map<String, String> properties) {
    requireNonNull(properties, "properties is null");
    return new SecretRedactor(
        properties.entrySet().stream()
            .filter(entry -> SECRET_PROPERTY.matcher(entry.getKey()).matches())
            .map(Map.Entry::getValue)
            .filter(value -> value != null && value.length() >= MIN_SECRET_LENGTH)
            .distinct()
            // longest first, so a secret containing another is masked whole
            .sorted(Comparator.comparingInt(String::length).reversed())
            .collect(ImmutableList.toImmutableList()));
  }

  /** Whether a property of this name holds a secret. */
  public static boolean isSecretProperty(String name) {
    return SECRET_PROPERTY.matcher(name.toLowerCase(Locale.ROOT)).matches();
  }

  public String redact(String message) {
    if (message == null) {
      return null;
    }
    String redacted = message;
    for (String secret : secrets) {
      redacted = redacted.replace(secret, MASK);
    }
    redacted =
        USER_INFO
            .matcher(redacted)
            .replaceAll(match -> Matcher.quoteReplacement(match.group("prefix") + MASK + "@"));
    redacted =
        SECRET_PARAMETER
            .matcher(redacted)
            .replaceAll(match -> Matcher.quoteReplacement(match.group("key") + MASK));
    return BEARER
        .matcher(redacted)
        .replaceAll(match -> Matcher.quoteReplacement(match.group("key") + MASK));
  }

  /**
   * The same error, code and type, with its message and every message of its cause chain redacted.
   */
  public TrinoException redact(TrinoException failure) {
    requireNonNull(failure, "failure is null");
    ErrorCode code = failure.getErrorCode();
    TrinoException redacted =
        new TrinoException(
            () -> code, redact(failure.getRawMessage()), redactChain(failure.getCause()));
    redacted.setStackTrace(failure.getStackTrace());
    return redacted;
  }

  private Throwable redactChain(Throwable cause) {
    if (cause == null) {
      return null;
    }
    RedactedCause copy =
        new RedactedCause(
            cause.getClass().getName(),
            redact(cause.getMessage()),
            redactChain(cause.getCause() == cause ? null : cause.getCause()));
    copy.setStackTrace(cause.getStackTrace());
    for (Throwable suppressed : cause.getSuppressed()) {
      copy.addSuppressed(redactChain(suppressed));
    }
    return copy;
  }
}
