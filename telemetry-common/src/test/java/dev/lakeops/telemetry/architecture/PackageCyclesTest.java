package dev.lakeops.telemetry.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;

/** No two packages of this module depend on each other (the build fails when a cycle appears). */
@AnalyzeClasses(
    packages = "dev.lakeops.telemetry",
    importOptions = ImportOption.DoNotIncludeTests.class)
class PackageCyclesTest {
  @ArchTest
  static void noTwoPackagesDependOnEachOther(JavaClasses classes) {
    slices().matching("dev.lakeops.(**)").should().beFreeOfCycles().check(classes);
  }
}
