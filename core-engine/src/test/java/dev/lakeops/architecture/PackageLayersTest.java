package dev.lakeops.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import dev.lakeops.compact.TableCompactor;
import java.net.URISyntaxException;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The core's dependencies point one way. Bottom up: shared values and units, {@code plan}, {@code
 * rewrite} (Parquet and Arrow primitives, then reading and encoding, then the rewrite strategies),
 * the delete-file rewriters, {@code commit}, {@code compact}, and the operations built on a
 * compaction ({@code advise}, {@code maintain}, {@code runs}). The daemon ({@code lakeops-server})
 * and the command line sit above all of them in modules of their own. A class that reaches upwards,
 * or two packages that need each other, fail the build here.
 */
class PackageLayersTest {
  private static JavaClasses core;

  @BeforeAll
  static void importTheCore() throws URISyntaxException {
    Location classes =
        Location.of(
            TableCompactor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    core = new ClassFileImporter().importLocations(Set.of(classes));
  }

  @Test
  void noTwoPackagesDependOnEachOther() {
    slices().matching("dev.lakeops.(**)").should().beFreeOfCycles().check(core);
  }

  @Test
  void layersDependOnlyDownwards() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Values")
        .definedBy(
            "dev.lakeops.unit..",
            "dev.lakeops.argument..",
            "dev.lakeops.io..",
            "dev.lakeops.expression..",
            "dev.lakeops.memory..",
            "dev.lakeops.lock..",
            "dev.lakeops.health..",
            "dev.lakeops.catalog..",
            "dev.lakeops.verify..",
            "dev.lakeops.cost..")
        .layer("Plan")
        .definedBy("dev.lakeops.plan..")
        .layer("Rewrite")
        .definedBy("dev.lakeops.rewrite..")
        .layer("Deletes")
        .definedBy("dev.lakeops.deletes..")
        .layer("Commit")
        .definedBy("dev.lakeops.commit..")
        .layer("Compact")
        .definedBy("dev.lakeops.compact..", "dev.lakeops.distribute..")
        .layer("Operations")
        .definedBy("dev.lakeops.advise..", "dev.lakeops.maintain..", "dev.lakeops.runs..")
        .whereLayer("Operations")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Compact")
        .mayOnlyBeAccessedByLayers("Operations")
        .whereLayer("Commit")
        .mayOnlyBeAccessedByLayers("Compact", "Operations")
        .whereLayer("Deletes")
        .mayOnlyBeAccessedByLayers("Commit", "Compact", "Operations")
        .whereLayer("Rewrite")
        .mayOnlyBeAccessedByLayers("Deletes", "Commit", "Compact", "Operations")
        .whereLayer("Plan")
        .mayOnlyBeAccessedByLayers("Rewrite", "Deletes", "Commit", "Compact", "Operations")
        .check(core);
  }

  @Test
  void rewriteBuildsStrategiesOnReadingAndEncodingOnPrimitives() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Primitives")
        .definedBy("dev.lakeops.rewrite.codec..")
        .layer("Groups")
        .definedBy("dev.lakeops.rewrite")
        .layer("ReadAndEncode")
        .definedBy("dev.lakeops.rewrite.read..", "dev.lakeops.rewrite.encode..")
        .layer("Strategies")
        .definedBy(
            "dev.lakeops.rewrite.arrow..",
            "dev.lakeops.rewrite.copy..",
            "dev.lakeops.rewrite.sort..")
        .whereLayer("Strategies")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("ReadAndEncode")
        .mayOnlyBeAccessedByLayers("Strategies")
        .whereLayer("Groups")
        .mayOnlyBeAccessedByLayers("ReadAndEncode", "Strategies")
        .check(core);
  }
}
