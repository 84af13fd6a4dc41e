package dev.lakeops.io;

import static java.util.Objects.requireNonNull;

import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/**
 * An output file whose {@link #create()} does not ask the store whether the file exists first. On
 * an object store that question is a request of its own (a HEAD) before every file written; a
 * rewrite's output names are new by construction (the run's operation id and a random id), so the
 * answer is always no.
 */
final class UnprobedOutputFile implements OutputFile {
  private final OutputFile delegate;

  UnprobedOutputFile(OutputFile delegate) {
    this.delegate = requireNonNull(delegate, "delegate is null");
  }

  @Override
  public PositionOutputStream create() {
    return delegate.createOrOverwrite();
  }

  @Override
  public PositionOutputStream createOrOverwrite() {
    return delegate.createOrOverwrite();
  }

  @Override
  public String location() {
    return delegate.location();
  }

  @Override
  public InputFile toInputFile() {
    return delegate.toInputFile();
  }
}
