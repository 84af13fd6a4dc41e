package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * A rewrite's view of the table's {@link FileIO} on an object store: input files fetched ahead come
 * from the {@link InputPrefetcher}, everything else from the table's own FileIO. New output files
 * are created without asking the store first whether they exist (see {@link UnprobedOutputFile}).
 * Closing it leaves the table's FileIO open: the table owns it.
 */
public final class PrefetchingFileIO implements FileIO {
  private final FileIO delegate;
  private final InputPrefetcher prefetcher;

  public PrefetchingFileIO(FileIO delegate, InputPrefetcher prefetcher) {
    this.delegate = requireNonNull(delegate, "delegate is null");
    this.prefetcher = requireNonNull(prefetcher, "prefetcher is null");
  }

  @Override
  public InputFile newInputFile(String path) {
    return delegate.newInputFile(path);
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    InputFile direct = delegate.newInputFile(path, length);
    return prefetcher.fetched(path, direct).<InputFile>map(file -> file).orElse(direct);
  }

  @Override
  public InputFile newInputFile(DataFile file) {
    InputFile direct = delegate.newInputFile(file);
    if (file.keyMetadata() != null) {
      return direct;
    }
    return prefetcher
        .fetched(file.location(), direct)
        .<InputFile>map(fetched -> fetched)
        .orElse(direct);
  }

  @Override
  public InputFile newInputFile(DeleteFile file) {
    return delegate.newInputFile(file);
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return new UnprobedOutputFile(delegate.newOutputFile(path));
  }

  @Override
  public void deleteFile(String path) {
    delegate.deleteFile(path);
  }

  @Override
  public Map<String, String> properties() {
    return delegate.properties();
  }

  @Override
  public void close() {
    // the table's FileIO stays open
  }
}
