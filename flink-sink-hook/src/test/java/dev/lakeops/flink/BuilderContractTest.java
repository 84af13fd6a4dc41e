package dev.lakeops.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.operation.ArgumentAlias;
import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.Operations;
import dev.lakeops.unit.ByteSize;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The builder takes the compact arguments of the procedure contract the hook offers under their
 * Flink spelling ({@code memoryBudget}), and keeps the deprecated spellings as deprecated methods.
 */
class BuilderContractTest {
  @Test
  void builderDeclaresTheContractsCompactArguments() {
    List<Method> methods =
        Arrays.stream(LakeOpsCompaction.Builder.class.getMethods())
            .filter(method -> Modifier.isPublic(method.getModifiers()))
            .toList();
    List<OperationArgument> arguments = Operations.COMPACT.arguments(Host.FLINK);
    assertThat(arguments).isNotEmpty();
    for (OperationArgument argument : arguments) {
      assertThat(methods)
          .as(argument.spelling(Host.FLINK))
          .anyMatch(
              method ->
                  method.getName().equals(argument.spelling(Host.FLINK))
                      && !method.isAnnotationPresent(Deprecated.class));
      for (ArgumentAlias alias : argument.aliasesOn(Host.FLINK)) {
        assertThat(methods)
            .as(alias.name())
            .anyMatch(
                method ->
                    method.getName().equals(alias.name())
                        && method.isAnnotationPresent(Deprecated.class));
      }
    }
  }

  @Test
  void everySetterTakesTheContractsTypeOfValue() {
    Map<ArgumentType, Class<?>> javaTypes =
        Map.of(
            ArgumentType.TEXT, String.class,
            ArgumentType.SIZE, ByteSize.class,
            ArgumentType.TEXT_MAP, Map.class);
    for (OperationArgument argument : Operations.COMPACT.arguments(Host.FLINK)) {
      Method setter =
          Arrays.stream(LakeOpsCompaction.Builder.class.getMethods())
              .filter(method -> method.getName().equals(argument.spelling(Host.FLINK)))
              .filter(method -> !method.isAnnotationPresent(Deprecated.class))
              .findFirst()
              .orElseThrow();
      assertThat(setter.getParameterTypes())
          .as(argument.spelling(Host.FLINK))
          .containsExactly(javaTypes.get(argument.type()));
    }
  }

  @Test
  void theBuilderDefaultsAsTheContractSays() {
    assertThat(CompactionHookOptions.defaults().memory()).isEqualTo(ContractDefaults.MEMORY_BUDGET);
    assertThat(Operations.COMPACT.argument(Operations.MEMORY_BUDGET).spelling(Host.FLINK))
        .isEqualTo("memoryBudget");
  }
}
