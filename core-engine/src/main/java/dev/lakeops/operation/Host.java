package dev.lakeops.operation;

/** Where an operation is offered, and how each spells an argument's name. */
public enum Host {
  /** {@code CALL lakeops.compact(table => 'cat.db.t', memory_budget => '512MB')}. */
  SPARK,
  /**
   * {@code CALL lakeops.system.compact(schema_name => 'db', table_name => 't', memory_budget =>
   * '512MB')}: Trino reserves {@code table}, so the table is two arguments, and {@code where}, so
   * callers quote it.
   */
  TRINO,
  /**
   * {@code lakeops compact db.t --memory-budget 512MB}, and the same flags after {@code
   * spark-submit ... LakeOpsJob compact cat.db.t}.
   */
  CLI,
  /** {@code LakeOpsCompaction.forTable(loader).memoryBudget(ByteSize.ofMegabytes(512))}. */
  FLINK;

  /** The name of {@code argument} (a contract name such as {@code memory_budget}) on this host. */
  public String spell(String argument) {
    return switch (this) {
      case SPARK -> argument;
      case TRINO -> argument.equals("where") ? "\"where\"" : argument;
      case CLI -> "--" + argument.replace('_', '-');
      case FLINK -> camelCase(argument);
    };
  }

  private static String camelCase(String argument) {
    StringBuilder name = new StringBuilder();
    boolean upper = false;
    for (char character : argument.toCharArray()) {
      if (character == '_') {
        upper = true;
      } else {
        name.append(upper ? Character.toUpperCase(character) : character);
        upper = false;
      }
    }
    return name.toString();
  }
}
