package dev.lakeops.operation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperationsTest {
  @Test
  void namesAreSnakeCaseAndUnique() {
    assertThat(Operations.ALL).extracting(Operation::name).doesNotHaveDuplicates();
    for (Operation operation : Operations.ALL) {
      assertThat(operation.name()).matches("[a-z]+(_[a-z]+)*");
      for (OperationArgument argument : operation.arguments()) {
        assertThat(argument.name()).matches("[a-z]+(_[a-z]+)*");
        assertThat(argument.cliFlag()).startsWith("--");
      }
    }
  }

  @Test
  void theSameArgumentNameMeansTheSameKindEverywhere() {
    for (Operation operation : Operations.ALL) {
      for (OperationArgument argument : operation.arguments()) {
        for (Operation other : Operations.ALL) {
          other.arguments().stream()
              .filter(candidate -> candidate.name().equals(argument.name()))
              .forEach(candidate -> assertThat(candidate.type()).isEqualTo(argument.type()));
        }
      }
    }
  }

  @Test
  void hostsSpellTheContractName() {
    OperationArgument memory = Operations.COMPACT.argument("memory_budget");

    assertThat(memory.spelling(Host.SPARK)).isEqualTo("memory_budget");
    assertThat(memory.spelling(Host.TRINO)).isEqualTo("memory_budget");
    assertThat(memory.spelling(Host.CLI)).isEqualTo("--memory-budget");
    assertThat(memory.spelling(Host.FLINK)).isEqualTo("memoryBudget");
    assertThat(memory.aliasesOn(Host.SPARK))
        .extracting(ArgumentAlias::name)
        .containsExactly("memory");
    assertThat(Operations.COMPACT.argument("options").spelling(Host.CLI)).isEqualTo("--option");
  }

  @Test
  void sparkAndTrinoOfferTheSameOperationsWithTheSameArguments() {
    assertThat(Operations.offeredOn(Host.SPARK)).isEqualTo(Operations.offeredOn(Host.TRINO));
    for (Operation operation : Operations.offeredOn(Host.SPARK)) {
      assertThat(operation.arguments(Host.TRINO))
          .as(operation.name())
          .isEqualTo(
              operation.arguments(Host.SPARK).stream()
                  .filter(argument -> !argument.name().equals("execution"))
                  .toList());
    }
  }

  @Test
  void nullListElementIsTheSameErrorEverywhere() {
    assertThatThrownBy(() -> ArgumentValues.texts("skip_steps", Arrays.asList("expire", null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Argument 'skip_steps' has a NULL element at position 2: remove it or pass a value");
    assertThatThrownBy(() -> ArgumentValues.longs("snapshot_ids", Arrays.asList(null, 1L)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "Argument 'snapshot_ids' has a NULL element at position 1: remove it or pass a value");
    assertThatThrownBy(() -> ArgumentValues.texts("zorder_columns", List.of("a", " ")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Argument 'zorder_columns' has a blank element at position 2: remove it");
    assertThat(ArgumentValues.texts("zorder_columns", List.of(" a", "b ")))
        .containsExactly("a", "b");
    assertThat(ArgumentValues.texts("zorder_columns", null)).isEmpty();
  }
}
