package dev.lakeops.compact;

import static java.util.Objects.requireNonNull;

import com.google.common.base.Suppliers;
import dev.lakeops.plan.FileGroup;
import dev.lakeops.rewrite.GroupRewriteStage;
import dev.lakeops.rewrite.RewrittenGroup;
import java.util.function.Supplier;
import org.apache.arrow.memory.BufferAllocator;

/**
 * The decoding path of a file group, built the first time a group needs it. A binpack whose groups
 * all merge without decoding never builds it: building it converts the table's schema to Arrow's
 * and prepares a batch reader, start-up work that a short compaction on object storage, bound by
 * the CPU its requests take, would otherwise pay for nothing.
 */
final class LazyDecodingStage implements GroupRewriteStage {
  private final Supplier<GroupRewriteStage> stage;

  LazyDecodingStage(Supplier<GroupRewriteStage> factory) {
    requireNonNull(factory, "factory is null");
    this.stage = Suppliers.memoize(factory::get);
  }

  @Override
  public RewrittenGroup rewrite(FileGroup group, BufferAllocator groupAllocator) {
    return stage.get().rewrite(group, groupAllocator);
  }
}
