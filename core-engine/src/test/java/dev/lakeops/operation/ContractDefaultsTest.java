package dev.lakeops.operation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.compact.CompactionRequest;
import dev.lakeops.deletes.equality.ConversionOptions;
import dev.lakeops.unit.ByteSize;
import org.junit.jupiter.api.Test;

class ContractDefaultsTest {
  @Test
  void theMemoryBudgetDefaultIsOneValueShownAsUsersTypeIt() {
    assertThat(ContractDefaults.MEMORY_BUDGET).isEqualTo(ByteSize.ofMegabytes(256));
    assertThat(CompactionRequest.DEFAULT_MEMORY_BUDGET).isSameAs(ContractDefaults.MEMORY_BUDGET);
    assertThat(ConversionOptions.DEFAULT_MEMORY_BUDGET).isSameAs(ContractDefaults.MEMORY_BUDGET);
    assertThat(Operations.COMPACT.argument(Operations.MEMORY_BUDGET).defaultValue())
        .contains("256MB");
    assertThat(ContractDefaults.text(Operations.COMPACT, Operations.MEMORY_BUDGET))
        .contains("256MB");
  }

  @Test
  void everyTypedDefaultIsTheDefaultTheContractShows() {
    for (Operation operation : Operations.ALL) {
      for (OperationArgument argument : operation.arguments()) {
        ContractDefaults.text(operation, argument.name())
            .ifPresent(
                text ->
                    assertThat(argument.defaultValue().orElseThrow())
                        .as(operation.name() + " " + argument.name())
                        .startsWith(text));
      }
    }
  }

  @Test
  void sizesReadAsTyped() {
    assertThat(ContractDefaults.text(ByteSize.parse("1GB"))).isEqualTo("1GB");
    assertThat(ContractDefaults.text(ByteSize.parse("64KB"))).isEqualTo("64KB");
    assertThat(ContractDefaults.text(ByteSize.ofBytes(1000))).isEqualTo("1000");
    assertThat(ByteSize.parse(ContractDefaults.text(ByteSize.parse("768MB"))))
        .isEqualTo(ByteSize.parse("768MB"));
  }

  @Test
  void compactTakesTheTargetFileSize() {
    OperationArgument targetFileSize = Operations.COMPACT.argument(Operations.TARGET_FILE_SIZE);
    assertThat(targetFileSize.type()).isEqualTo(ArgumentType.SIZE);
    assertThat(targetFileSize.defaultValue()).contains("the table's write.target-file-size-bytes");
    assertThat(targetFileSize.spelling(Host.CLI)).isEqualTo("--target-file-size");
  }
}
