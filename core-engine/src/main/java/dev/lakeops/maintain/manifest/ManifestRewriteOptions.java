package dev.lakeops.maintain.manifest;

import static java.util.Objects.requireNonNull;

import dev.lakeops.argument.InvalidArgumentException;
import dev.lakeops.unit.ByteSize;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What to rewrite.
 *
 * @param specId only data manifests of this partition spec (default: every spec)
 * @param targetManifestSize size of the new manifests for this run only (default: the table's
 *     {@code commit.manifest.target-size-bytes}, 8MB); the table property is left as it was
 * @param dryRun report the manifests that would be rewritten, change nothing
 */
public record ManifestRewriteOptions(
    OptionalInt specId, Optional<ByteSize> targetManifestSize, boolean dryRun) {
  public ManifestRewriteOptions {
    requireNonNull(specId, "specId is null");
    requireNonNull(targetManifestSize, "targetManifestSize is null");
    if (targetManifestSize.isPresent() && targetManifestSize.get().bytes() == 0) {
      throw new InvalidArgumentException(
          "Target manifest size 0B is too small: set {target_manifest_size} to a size such as 8MB");
    }
  }

  public static ManifestRewriteOptions defaults() {
    return new ManifestRewriteOptions(OptionalInt.empty(), Optional.empty(), false);
  }

  public ManifestRewriteOptions withDryRun(boolean value) {
    return new ManifestRewriteOptions(specId, targetManifestSize, value);
  }
}
