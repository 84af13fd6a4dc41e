package dev.lakeops.operation.call;

import static java.util.Objects.requireNonNull;

import dev.lakeops.maintain.manifest.ManifestRewriteOptions;
import dev.lakeops.maintain.manifest.ManifestRewriteResult;
import dev.lakeops.maintain.manifest.ManifestRewriter;
import dev.lakeops.operation.MaintenanceOperation;
import dev.lakeops.operation.Operation;
import dev.lakeops.operation.OperationArguments;
import dev.lakeops.operation.Operations;
import dev.lakeops.runs.MeasuredRun;
import org.apache.iceberg.Table;

/**
 * {@code rewrite_manifests} bound to its options.
 *
 * @param options what to rewrite
 */
public record RewriteManifestsCall(ManifestRewriteOptions options)
    implements BoundOperation<ManifestRewriteResult> {
  public RewriteManifestsCall {
    requireNonNull(options, "options is null");
  }

  /** Checks {@code arguments} and applies the contract's defaults. */
  public static RewriteManifestsCall bind(OperationArguments arguments) {
    ArgumentReader reader = new ArgumentReader(Operations.REWRITE_MANIFESTS, arguments);
    return new RewriteManifestsCall(
        new ManifestRewriteOptions(
            reader.integer("spec_id", 0, "partition spec ids start at 0"),
            reader.size("target_manifest_size"),
            reader.flag(Operations.DRY_RUN)));
  }

  @Override
  public Operation operation() {
    return Operations.REWRITE_MANIFESTS;
  }

  @Override
  public boolean dryRun() {
    return options.dryRun();
  }

  @Override
  public MeasuredRun<ManifestRewriteResult> run(Table table, RunSettings settings) {
    return settings
        .recorder()
        .withDryRun(options.dryRun())
        .recordMeasured(
            MaintenanceOperation.REWRITE_MANIFESTS,
            () -> new ManifestRewriter().rewrite(table, options));
  }
}
