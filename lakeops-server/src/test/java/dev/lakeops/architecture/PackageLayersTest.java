package dev.lakeops.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.Location;
import dev.lakeops.control.MaintenanceDaemon;
import java.net.URISyntaxException;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The server's dependencies point one way, on top of the core. Bottom up: the policies ({@code
 * policy}) and the daemon's membership ({@code members}), the maintenance triggers ({@code
 * trigger}) and the table observer with its metrics ({@code observe}), the learning planner ({@code
 * learn}), then the daemon itself ({@code control}) and the dashboard ({@code web}) side by side:
 * neither knows the other, the command line's {@code serve} joins them. A class that reaches
 * upwards, or two packages that need each other, fail the build here.
 */
class PackageLayersTest {
  private static JavaClasses server;

  @BeforeAll
  static void importTheServer() throws URISyntaxException {
    Location classes =
        Location.of(
            MaintenanceDaemon.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    server = new ClassFileImporter().importLocations(Set.of(classes));
  }

  @Test
  void noTwoPackagesDependOnEachOther() {
    slices().matching("dev.lakeops.(**)").should().beFreeOfCycles().check(server);
  }

  @Test
  void layersDependOnlyDownwards() {
    layeredArchitecture()
        .consideringOnlyDependenciesInLayers()
        .layer("Policies")
        .definedBy("dev.lakeops.policy..")
        .layer("Members")
        .definedBy("dev.lakeops.members..")
        .layer("Triggers")
        .definedBy("dev.lakeops.trigger..")
        .layer("Observe")
        .definedBy("dev.lakeops.observe..")
        .layer("Learn")
        .definedBy("dev.lakeops.learn..")
        .layer("Daemon")
        .definedBy("dev.lakeops.control..")
        .layer("Dashboard")
        .definedBy("dev.lakeops.web..")
        .whereLayer("Dashboard")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Daemon")
        .mayNotBeAccessedByAnyLayer()
        .whereLayer("Learn")
        .mayOnlyBeAccessedByLayers("Daemon", "Dashboard")
        .whereLayer("Observe")
        .mayOnlyBeAccessedByLayers("Learn", "Daemon", "Dashboard")
        .whereLayer("Triggers")
        .mayOnlyBeAccessedByLayers("Daemon")
        .whereLayer("Members")
        .mayOnlyBeAccessedByLayers("Daemon")
        .whereLayer("Policies")
        .mayOnlyBeAccessedByLayers("Triggers", "Observe", "Learn", "Daemon", "Dashboard")
        .check(server);
  }
}
