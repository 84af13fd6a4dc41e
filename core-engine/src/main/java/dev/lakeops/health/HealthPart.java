package dev.lakeops.health;

import static java.util.Objects.requireNonNull;

/**
 * One named part of a {@link HealthScore}.
 *
 * @param name {@code small-files}, {@code delete-files}, {@code manifests} or {@code snapshots}
 * @param score 0 (as bad as it gets) to 100 (nothing to do)
 * @param detail what the score was computed from, for humans
 */
public record HealthPart(String name, int score, String detail) {
  public HealthPart {
    requireNonNull(name, "name is null");
    requireNonNull(detail, "detail is null");
    if (score < 0 || score > 100) {
      throw new IllegalArgumentException(
          "Health part " + name + " score must be in [0, 100]: " + score);
    }
  }
}
