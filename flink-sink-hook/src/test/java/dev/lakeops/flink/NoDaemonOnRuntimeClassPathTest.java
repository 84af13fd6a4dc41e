package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.testing.RuntimeClassPath;
import org.junit.jupiter.api.Test;

/**
 * The Flink hook's class path (what a job puts next to the hook) carries the engine library only:
 * no class of the daemon (lakeops-server's control, web, policy, trigger, observe, learn, members)
 * and none of its HTTP, YAML or Prometheus libraries. The class path is this module's runtime
 * scope, written by the build-classpath execution in the pom.
 */
class NoDaemonOnRuntimeClassPathTest {
  private final RuntimeClassPath classPath = RuntimeClassPath.read("lakeops.runtime.classpath");

  @Test
  void theRuntimeClassPathHoldsTheCore() {
    assertThat(classPath.entries()).anyMatch(entry -> entry.toString().contains("core-engine"));
  }

  @Test
  void noDaemonLibraryIsOnTheRuntimeClassPath() {
    assertThat(classPath.serverLibraries()).isEmpty();
  }

  @Test
  void noDaemonClassIsOnTheRuntimeClassPath() {
    assertThat(classPath.serverClasses()).isEmpty();
  }
}
