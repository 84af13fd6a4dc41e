package dev.lakeops.ledger;

import java.util.List;
import java.util.UUID;

/** Records nothing: for hosts that have no store configured. */
final class DisabledRunLedger implements RunLedger {
  static final DisabledRunLedger INSTANCE = new DisabledRunLedger();

  private DisabledRunLedger() {}

  @Override
  public RunHandle start(RunStart start) {
    String runId = UUID.randomUUID().toString();
    return new RunHandle() {
      @Override
      public String runId() {
        return runId;
      }

      @Override
      public void succeeded(RunFigures figures) {}

      @Override
      public void failed(String error, RunFigures figures) {}

      @Override
      public void abandoned(String reason) {}
    };
  }

  @Override
  public List<RunRecord> list(RunQuery query) {
    return List.of();
  }

  @Override
  public boolean abandon(String runId, String reason) {
    return false;
  }

  @Override
  public String describe() {
    return "no store";
  }

  @Override
  public void close() {}
}
