package dev.lakeops.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.operation.ArgumentAlias;
import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.ContractDefaults;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.Operations;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.procedures.ProcedureParameter;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;

/**
 * Every Spark procedure declares exactly the arguments of the procedure contract, with Spark's type
 * for each kind, after {@code table}, followed by the deprecated aliases Spark still accepts.
 */
class ProcedureContractTest {
  @Test
  void everyProcedureDeclaresExactlyTheContractsArguments() {
    LakeOpsProcedureCatalog catalog = new LakeOpsProcedureCatalog();
    catalog.initialize("lakeops", CaseInsensitiveStringMap.empty());
    assertThat(Arrays.stream(catalog.listProcedures(new String[0])).map(Identifier::name))
        .containsExactlyInAnyOrderElementsOf(
            Operations.offeredOn(Host.SPARK).stream().map(Operation::name).toList());
    for (Operation operation : Operations.offeredOn(Host.SPARK)) {
      UnboundProcedure procedure =
          catalog.loadProcedure(Identifier.of(new String[0], operation.name()));
      ProcedureParameter[] parameters = procedure.bind(new StructType()).parameters();

      List<String> names = new ArrayList<>(List.of("table"));
      List<DataType> types = new ArrayList<>(List.of(SparkParameters.TABLE.dataType()));
      for (OperationArgument argument : operation.arguments(Host.SPARK)) {
        names.add(argument.name());
        types.add(SparkParameters.type(argument.type()));
      }
      for (OperationArgument argument : operation.arguments(Host.SPARK)) {
        for (ArgumentAlias alias : argument.aliasesOn(Host.SPARK)) {
          names.add(alias.name());
          types.add(SparkParameters.type(alias.type()));
        }
      }
      assertThat(Arrays.stream(parameters).map(ProcedureParameter::name))
          .as(operation.name())
          .containsExactlyElementsOf(names);
      assertThat(Arrays.stream(parameters).map(ProcedureParameter::dataType))
          .as(operation.name())
          .containsExactlyElementsOf(types);
      assertThat(procedure.description()).isEqualTo(operation.description());
    }
  }

  @Test
  void everyParameterDefaultsAsTheContractSays() {
    LakeOpsProcedureCatalog catalog = new LakeOpsProcedureCatalog();
    catalog.initialize("lakeops", CaseInsensitiveStringMap.empty());
    for (Operation operation : Operations.offeredOn(Host.SPARK)) {
      ProcedureParameter[] parameters =
          catalog
              .loadProcedure(Identifier.of(new String[0], operation.name()))
              .bind(new StructType())
              .parameters();
      for (OperationArgument argument : operation.arguments(Host.SPARK)) {
        ProcedureParameter parameter =
            Arrays.stream(parameters)
                .filter(candidate -> candidate.name().equals(argument.name()))
                .findFirst()
                .orElseThrow();
        String what = operation.name() + " " + argument.name();
        // a boolean carries its default; the rest are NULL, which the core's binder reads as
        // "the contract's default"
        assertThat(parameter.defaultValue().getSql())
            .as(what)
            .isEqualTo(
                argument.type() == ArgumentType.BOOLEAN
                    ? argument.defaultValue().orElse("false")
                    : "NULL");
        assertThat(parameter.comment())
            .as(what)
            .isEqualTo(
                argument.description()
                    + argument.defaultValue().map(text -> " (default: " + text + ")").orElse(""));
        ContractDefaults.text(operation, argument.name())
            .ifPresent(
                text -> assertThat(parameter.comment()).as(what).contains("(default: " + text));
      }
    }
    ProcedureParameter memoryBudget =
        Arrays.stream(
                catalog
                    .loadProcedure(Identifier.of(new String[0], "compact"))
                    .bind(new StructType())
                    .parameters())
            .filter(parameter -> parameter.name().equals("memory_budget"))
            .findFirst()
            .orElseThrow();
    assertThat(memoryBudget.comment()).endsWith("(default: 256MB)");
  }

  @Test
  void deprecatedSparkSpellingsAreTheOnesScriptsUsed() {
    assertThat(Operations.COMPACT.argument("memory_budget").aliasesOn(Host.SPARK))
        .extracting(ArgumentAlias::name)
        .containsExactly("memory");
    assertThat(Operations.COMPACT.argument("zorder_columns").aliasesOn(Host.SPARK))
        .extracting(ArgumentAlias::name)
        .containsExactly("zorder_by");
  }
}
