package dev.lakeops.spark.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IcebergClassNamesTest {
  @Test
  void userPackageIsIcebergsOwn() {
    assertThat(IcebergClassNames.USER_PACKAGE).isEqualTo("org" + ".apache.iceberg.");
    assertThat(IcebergClassNames.SPARK_CATALOGS)
        .containsExactlyInAnyOrder(
            "org" + ".apache.iceberg.spark.SparkCatalog",
            "org" + ".apache.iceberg.spark.SparkSessionCatalog");
  }

  @Test
  void unshadedClassPathKeepsConfiguredNames() {
    assertThat(IcebergClassNames.BUNDLED_PACKAGE).isEqualTo(IcebergClassNames.USER_PACKAGE);
    assertThat(IcebergClassNames.toBundled("org.apache.iceberg.rest.RESTCatalog"))
        .isEqualTo("org.apache.iceberg.rest.RESTCatalog");
    assertThat(IcebergClassNames.toBundled("com.example.MyCatalog"))
        .isEqualTo("com.example.MyCatalog");
  }
}
