package dev.lakeops.health;

/**
 * The one rule for "small file", used by health, triggers and the compaction planner: a data file
 * is small when its size is under {@code ratio} × the target file size (policy key {@code
 * compact.small-file-ratio}, default 0.75).
 *
 * @param ratio the share of the target size under which a file is small, in (0, 1]
 */
public record SmallFileRule(double ratio) {
  /** The default share of the target size under which a file is small. */
  public static final double DEFAULT_RATIO = 0.75;

  public SmallFileRule {
    if (!(ratio > 0 && ratio <= 1)) {
      throw new IllegalArgumentException(
          "Invalid small-file ratio " + ratio + ": must be in (0, 1], e.g. 0.75");
    }
  }

  public static SmallFileRule defaults() {
    return new SmallFileRule(DEFAULT_RATIO);
  }

  /** Files strictly under this many bytes are small for {@code targetFileSizeBytes}. */
  public long thresholdBytes(long targetFileSizeBytes) {
    return (long) (targetFileSizeBytes * ratio);
  }

  public boolean isSmall(long fileSizeBytes, long targetFileSizeBytes) {
    return fileSizeBytes < thresholdBytes(targetFileSizeBytes);
  }
}
