package dev.lakeops.trino.procedure;

import static io.trino.type.InternalTypeManager.TESTING_TYPE_MANAGER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lakeops.operation.ArgumentType;
import dev.lakeops.operation.Host;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArgument;
import dev.lakeops.operation.Operations;
import io.trino.spi.connector.ConnectorAccessControl;
import io.trino.spi.connector.ConnectorSession;
import io.trino.spi.procedure.Procedure.Argument;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every Trino procedure declares the contract's arguments with the contract's names, Trino types
 * and defaults, and its method takes them in that order with the Java type Trino hands over.
 */
class TestProcedureContract {
  private static final Map<String, Method> METHODS =
      Map.of(
          "compact", method(CompactProcedure.class, "compact"),
          "expire_snapshots", method(ExpireSnapshotsProcedure.class, "expireSnapshots"),
          "remove_orphan_files", method(RemoveOrphanFilesProcedure.class, "removeOrphanFiles"),
          "rewrite_manifests", method(RewriteManifestsProcedure.class, "rewriteManifests"),
          "maintain", method(MaintainProcedure.class, "maintain"),
          "health", method(HealthProcedure.class, "health"));

  private static final Map<ArgumentType, Class<?>> JAVA_TYPES =
      Map.of(
          ArgumentType.TEXT, String.class,
          ArgumentType.SIZE, String.class,
          ArgumentType.CUTOFF, String.class,
          ArgumentType.BOOLEAN, Boolean.class,
          ArgumentType.INTEGER, Long.class,
          ArgumentType.TEXT_LIST, List.class,
          ArgumentType.LONG_LIST, List.class,
          ArgumentType.TEXT_MAP, Map.class);

  @Test
  void everyProcedureDeclaresTheContractsNamesTypesAndDefaults() {
    assertThat(METHODS.keySet())
        .containsExactlyInAnyOrderElementsOf(
            Operations.offeredOn(Host.TRINO).stream().map(Operation::name).toList());
    for (Operation operation : Operations.offeredOn(Host.TRINO)) {
      List<Argument> arguments = ProcedureArguments.of(operation, TESTING_TYPE_MANAGER);
      List<OperationArgument> contract = operation.arguments(Host.TRINO);
      assertThat(arguments).as(operation.name()).hasSize(contract.size() + 2);
      Class<?>[] parameters = METHODS.get(operation.name()).getParameterTypes();
      assertThat(parameters).as(operation.name()).hasSize(contract.size() + 4);
      assertThat(parameters[0]).isEqualTo(ConnectorSession.class);
      assertThat(parameters[1]).isEqualTo(ConnectorAccessControl.class);
      for (int index = 0; index < contract.size(); index++) {
        OperationArgument argument = contract.get(index);
        Argument declared = arguments.get(index + 2);
        String what = operation.name() + " " + argument.name();
        assertThat(declared.getName().toLowerCase(Locale.ROOT)).as(what).isEqualTo(argument.name());
        assertThat(declared.getType())
            .as(what)
            .isEqualTo(ProcedureArguments.type(argument.type(), TESTING_TYPE_MANAGER));
        assertThat(declared.isOptional()).as(what).isTrue();
        assertThat(declared.getDefaultValue())
            .as(what + ": a flag carries its default, the rest are NULL for the contract's")
            .isEqualTo(
                argument.type() == ArgumentType.BOOLEAN
                    ? Boolean.valueOf(argument.defaultValue().orElse("false"))
                    : null);
        assertThat(parameters[index + 4]).as(what).isEqualTo(JAVA_TYPES.get(argument.type()));
      }
    }
  }

  @Test
  void compactTakesTheTargetFileSizeLast() {
    List<Argument> arguments = ProcedureArguments.of(Operations.COMPACT, TESTING_TYPE_MANAGER);

    assertThat(arguments.get(arguments.size() - 1).getName()).isEqualTo("TARGET_FILE_SIZE");
  }

  private static Method method(Class<?> procedure, String name) {
    return Arrays.stream(procedure.getMethods())
        .filter(method -> method.getName().equals(name))
        .findFirst()
        .orElseThrow();
  }
}
