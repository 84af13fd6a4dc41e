package dev.lakeops.trino;

import static io.airlift.configuration.ConfigBinder.configBinder;
import static java.util.Objects.requireNonNull;

import com.google.common.collect.ImmutableMap;
import com.google.inject.Binder;
import com.google.inject.Module;
import com.google.inject.Scopes;
import com.google.inject.multibindings.Multibinder;
import dev.lakeops.trino.connector.CatalogBinding;
import dev.lakeops.trino.connector.IcebergTables;
import dev.lakeops.trino.connector.LakeOpsConfig;
import dev.lakeops.trino.connector.RestCatalogSecurityConfig;
import dev.lakeops.trino.connector.S3FileSystemConfig;
import dev.lakeops.trino.procedure.CompactProcedure;
import dev.lakeops.trino.procedure.ExpireSnapshotsProcedure;
import dev.lakeops.trino.procedure.HealthProcedure;
import dev.lakeops.trino.procedure.MaintainProcedure;
import dev.lakeops.trino.procedure.RemoveOrphanFilesProcedure;
import dev.lakeops.trino.procedure.RewriteManifestsProcedure;
import dev.lakeops.trino.procedure.TableProcedureRunner;
import dev.lakeops.trino.run.ProcedureRunHistory;
import dev.lakeops.trino.run.RunLedgers;
import dev.lakeops.trino.system.RunsSystemTable;
import dev.lakeops.trino.system.TableSystemTables;
import io.trino.spi.procedure.Procedure;
import java.util.Map;

/** Binds the connector's configuration, its Iceberg catalog, its procedures and system tables. */
final class LakeOpsModule implements Module {
  private final String catalogName;
  private final Map<String, String> passThrough;

  LakeOpsModule(String catalogName, Map<String, String> passThrough) {
    this.catalogName = requireNonNull(catalogName, "catalogName is null");
    this.passThrough = ImmutableMap.copyOf(requireNonNull(passThrough, "passThrough is null"));
  }

  @Override
  public void configure(Binder binder) {
    configBinder(binder).bindConfig(LakeOpsConfig.class);
    configBinder(binder).bindConfig(RestCatalogSecurityConfig.class);
    configBinder(binder).bindConfig(S3FileSystemConfig.class);
    binder.bind(CatalogBinding.class).toInstance(new CatalogBinding(catalogName, passThrough));
    binder.bind(IcebergTables.class).in(Scopes.SINGLETON);
    binder.bind(ProcedureRunHistory.class).in(Scopes.SINGLETON);
    binder.bind(RunLedgers.class).in(Scopes.SINGLETON);
    binder.bind(TableProcedureRunner.class).in(Scopes.SINGLETON);
    binder.bind(TableSystemTables.class).in(Scopes.SINGLETON);
    binder.bind(RunsSystemTable.class).in(Scopes.SINGLETON);
    binder.bind(LakeOpsConnector.class).in(Scopes.SINGLETON);
    Multibinder<Procedure> procedures = Multibinder.newSetBinder(binder, Procedure.class);
    procedures.addBinding().toProvider(CompactProcedure.class).in(Scopes.SINGLETON);
    procedures.addBinding().toProvider(ExpireSnapshotsProcedure.class).in(Scopes.SINGLETON);
    procedures.addBinding().toProvider(RemoveOrphanFilesProcedure.class).in(Scopes.SINGLETON);
    procedures.addBinding().toProvider(RewriteManifestsProcedure.class).in(Scopes.SINGLETON);
    procedures.addBinding().toProvider(MaintainProcedure.class).in(Scopes.SINGLETON);
    procedures.addBinding().toProvider(HealthProcedure.class).in(Scopes.SINGLETON);
  }
}
