package dev.lakeops.spark.iceberg;

import java.util.Set;
import org.apache.iceberg.Table;

/**
 * Iceberg class names as users write them in Spark configuration, and as this jar sees them.
 *
 * <p>The shaded LakeOps jar relocates its own copy of Iceberg under {@code dev.lakeops.shaded} (see
 * docs/spark.md). The shade plugin rewrites every string constant that starts with Iceberg's
 * package, so names that must stay unrelocated (Spark's catalog classes from the user's Iceberg
 * runtime jar) are assembled from parts here, which the plugin cannot see.
 */
public final class IcebergClassNames {
  /** {@code org.apache.iceberg.}, immune to relocation. */
  public static final String USER_PACKAGE = String.join(".", "org", "apache", "iceberg", "");

  /** The package of the Iceberg copy this jar runs: relocated in the shaded jar, plain in tests. */
  public static final String BUNDLED_PACKAGE =
      Table.class.getName().substring(0, Table.class.getName().length() - "Table".length());

  /** The Spark catalog classes of Iceberg's Spark runtime whose tables LakeOps can compact. */
  public static final Set<String> SPARK_CATALOGS =
      Set.of(USER_PACKAGE + "spark.SparkCatalog", USER_PACKAGE + "spark.SparkSessionCatalog");

  private IcebergClassNames() {}

  /**
   * Maps a configured Iceberg class name (catalog-impl, io-impl...) onto the copy bundled in this
   * jar, so a user's {@code org.apache.iceberg.rest.RESTCatalog} loads the relocated class.
   */
  public static String toBundled(String className) {
    if (className.startsWith(USER_PACKAGE) && !USER_PACKAGE.equals(BUNDLED_PACKAGE)) {
      return BUNDLED_PACKAGE + className.substring(USER_PACKAGE.length());
    }
    return className;
  }
}
