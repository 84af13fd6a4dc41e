package dev.lakeops.argument;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Function;
import org.junit.jupiter.api.Test;

class ArgumentErrorTest {
  @Test
  void messageNamesArgumentsByTheirContractNames() {
    InvalidArgumentException error =
        new InvalidArgumentException("Memory budget 1KB is too small: use {memory_budget} 16MB");

    assertThat(error).hasMessage("Memory budget 1KB is too small: use memory_budget 16MB");
  }

  @Test
  void hostSpellsEveryArgumentItsOwnWay() {
    MemoryBudgetExceededException error =
        new MemoryBudgetExceededException("raise {memory_budget} or pass {equal_schemes}", null);

    Function<String, String> flags = name -> "--" + name.replace('_', '-');
    assertThat(error.messageFor(flags)).isEqualTo("raise --memory-budget or pass --equal-schemes");
    assertThat(error.messageFor(Function.identity()))
        .isEqualTo("raise memory_budget or pass equal_schemes");
  }
}
