package dev.lakeops.spark.bench.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** No two packages of this module depend on each other (the build fails when a cycle appears). */
class PackageCyclesTest {
  @Test
  void noTwoPackagesDependOnEachOther() {
    slices()
        .matching("dev.lakeops.(**)")
        .should()
        .beFreeOfCycles()
        .check(
            new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("dev.lakeops.spark.bench", "dev.lakeops.bench"));
  }
}
