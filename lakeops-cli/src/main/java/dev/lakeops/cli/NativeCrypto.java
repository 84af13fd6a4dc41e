package dev.lakeops.cli;

import com.amazon.corretto.crypto.provider.AmazonCorrettoCryptoProvider;

/**
 * Puts the Amazon Corretto Crypto Provider (native hashing and MACs from AWS-LC) first among the
 * JVM's security providers, where its native library loads (Linux on x86-64). S3 request signing
 * hashes every byte uploaded over plain HTTP and signs every request: the quick-start JVM, which
 * compiles with C1 only, runs the JDK's own SHA-256 at about a tenth of the native speed. Elsewhere
 * the JDK's providers stay as they are.
 */
final class NativeCrypto {
  /** Set to {@code false} to keep the JDK's own providers. */
  static final String PROPERTY = "lakeops.native-crypto";

  private NativeCrypto() {}

  static void installWhereAvailable() {
    if (!Boolean.parseBoolean(System.getProperty(PROPERTY, "true"))) {
      return;
    }
    try {
      if (AmazonCorrettoCryptoProvider.INSTANCE.getLoadingError() == null) {
        AmazonCorrettoCryptoProvider.install();
      }
    } catch (LinkageError | RuntimeException e) {
      // no native library for this platform: the JDK's providers serve as before
    }
  }
}
