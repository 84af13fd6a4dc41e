package dev.lakeops.deletes.equality;

import static java.util.Objects.requireNonNull;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetReaders;
import org.apache.iceberg.deletes.Deletes;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;
import org.apache.parquet.hadoop.ParquetInputFormat;

/**
 * Resolves equality deletes to row positions within a memory budget, with a grace-hash anti-join:
 * the keys of the equality delete files and the (file, position, key) of the data rows they may
 * delete are split by key hash into spill files, and each partition is joined in memory. When the
 * keys fit the budget the join runs in one pass without spilling.
 *
 * <p>Semantics are Iceberg's: delete files are grouped by their equality field ids; a data row is
 * deleted when a delete file with the same key columns holds its key and has a higher data sequence
 * number than the row's file. All tasks must come from one partition of one spec (a file group), so
 * every equality delete among them is in scope for every one of them.
 */
public final class EqualityDeleteResolver {
  private static final int MAX_PARTITIONS = 256;

  private final Table table;
  private final BufferAllocator allocator;
  private final long keyTableBytes;
  private final Path spillDirectory;

  /**
   * @param allocator the budget the key table and the position sets are counted against
   * @param keyTableBytes how much of it one partition's key table may take
   * @param spillDirectory where the spill files go (a new directory per run, removed afterwards)
   */
  public EqualityDeleteResolver(
      Table table, BufferAllocator allocator, long keyTableBytes, Path spillDirectory) {
    this.table = requireNonNull(table, "table is null");
    this.allocator = requireNonNull(allocator, "allocator is null");
    this.keyTableBytes = Math.max(1, keyTableBytes);
    this.spillDirectory = requireNonNull(spillDirectory, "spillDirectory is null");
  }

  /** Whether any task has an equality delete file. */
  public static boolean hasEqualityDeletes(List<FileScanTask> tasks) {
    return tasks.stream()
        .flatMap(task -> task.deletes().stream())
        .anyMatch(delete -> delete.content() == FileContent.EQUALITY_DELETES);
  }

  /** Heap Iceberg's own delete filter would need for the largest task's equality keys. */
  public long inMemoryFilterBytes(List<FileScanTask> tasks) {
    return EqualityDeleteSizes.inMemoryFilterBytes(table.schema(), tasks);
  }

  /** Resolves every equality delete file of {@code tasks}. */
  public ResolvedEqualityDeletes resolve(List<FileScanTask> tasks) {
    return resolve(tasks, delete -> true);
  }

  /** Resolves the equality delete files of {@code tasks} that {@code include} accepts. */
  public ResolvedEqualityDeletes resolve(List<FileScanTask> tasks, Predicate<DeleteFile> include) {
    Map<List<Integer>, Map<String, DeleteFile>> deletesByKey =
        new TreeMap<>(Comparator.comparing(List::toString));
    for (FileScanTask task : tasks) {
      for (DeleteFile delete : task.deletes()) {
        if (delete.content() == FileContent.EQUALITY_DELETES && include.test(delete)) {
          deletesByKey
              .computeIfAbsent(
                  delete.equalityFieldIds().stream().sorted().toList(),
                  ids -> new LinkedHashMap<>())
              .putIfAbsent(delete.location(), delete);
        }
      }
    }
    Map<String, PositionDeleteIndex> positions = new LinkedHashMap<>();
    List<DeleteFile> resolvedFiles = new ArrayList<>();
    JoinStatistics statistics = new JoinStatistics();
    MemoryReservation positionMemory = new MemoryReservation(allocator);
    try {
      for (Map.Entry<List<Integer>, Map<String, DeleteFile>> entry : deletesByKey.entrySet()) {
        List<DeleteFile> deletes = List.copyOf(entry.getValue().values());
        new KeyJoin(entry.getKey(), deletes, targets(tasks, deletes)).run(positions, statistics);
        resolvedFiles.addAll(deletes);
      }
      for (PositionDeleteIndex index : positions.values()) {
        positionMemory.add(positionSetBytes(index));
      }
      return new ResolvedEqualityDeletes(
          positions, resolvedFiles, statistics.spilledBytes, statistics.spillFiles, positionMemory);
    } catch (RuntimeException e) {
      positionMemory.close();
      throw e;
    }
  }

  /** Tasks that one of {@code deletes} applies to by sequence number. */
  private static List<FileScanTask> targets(List<FileScanTask> tasks, List<DeleteFile> deletes) {
    long newestDelete =
        deletes.stream().mapToLong(EqualityDeleteResolver::sequenceNumber).max().orElse(0);
    return tasks.stream().filter(task -> sequenceNumber(task) < newestDelete).toList();
  }

  static long sequenceNumber(DeleteFile delete) {
    return delete.dataSequenceNumber() == null ? 0 : delete.dataSequenceNumber();
  }

  static long sequenceNumber(FileScanTask task) {
    return task.file().dataSequenceNumber() == null ? 0 : task.file().dataSequenceNumber();
  }

  /** Roaring bitmaps take at most about two bytes a position, plus a container header per file. */
  private static long positionSetBytes(PositionDeleteIndex index) {
    return 256 + 2 * index.cardinality();
  }

  private static final class JoinStatistics {
    private long spilledBytes;
    private int spillFiles;
  }

  /** The join of the delete files with one set of equality field ids against their target files. */
  private final class KeyJoin {
    private final List<Integer> keyFieldIds;
    private final List<DeleteFile> deletes;
    private final List<FileScanTask> targets;
    private final long[] targetSequenceNumbers;
    private final Schema deleteSchema;
    private final Schema dataSchema;

    private KeyJoin(
        List<Integer> keyFieldIds, List<DeleteFile> deletes, List<FileScanTask> targets) {
      this.keyFieldIds = keyFieldIds;
      this.deletes = deletes;
      this.targets = targets;
      this.targetSequenceNumbers =
          targets.stream().mapToLong(EqualityDeleteResolver::sequenceNumber).toArray();
      for (int fieldId : keyFieldIds) {
        if (table.schema().findField(fieldId) == null) {
          throw new IllegalStateException(
              "Cannot apply equality delete files "
                  + deletes.get(0).location()
                  + ": their key column (field id "
                  + fieldId
                  + ") is no longer in the schema of table "
                  + table.name());
        }
      }
      this.deleteSchema = TypeUtil.select(table.schema(), new java.util.HashSet<>(keyFieldIds));
      List<Types.NestedField> dataColumns = new ArrayList<>(deleteSchema.columns());
      dataColumns.add(MetadataColumns.ROW_POSITION);
      this.dataSchema = new Schema(dataColumns);
    }

    void run(Map<String, PositionDeleteIndex> positions, JoinStatistics statistics) {
      if (targets.isEmpty()) {
        return;
      }
      long estimate = EqualityDeleteSizes.keyTableBytes(table.schema(), deletes);
      if (estimate <= keyTableBytes) {
        joinInMemory(positions);
        return;
      }
      int partitions =
          (int)
              Math.min(
                  MAX_PARTITIONS, Math.max(2, (2 * estimate + keyTableBytes - 1) / keyTableBytes));
      Path directory;
      try {
        Files.createDirectories(spillDirectory);
        directory = Files.createTempDirectory(spillDirectory, "lakeops-equality-deletes-");
      } catch (IOException e) {
        throw new UncheckedIOException(
            "Cannot create a spill directory in "
                + spillDirectory
                + "; set a writable spill directory",
            e);
      }
      try {
        joinSpilled(directory, partitions, positions, statistics);
      } finally {
        deleteDirectory(directory);
      }
    }

    private void joinInMemory(Map<String, PositionDeleteIndex> positions) {
      try (MemoryReservation memory = new MemoryReservation(allocator)) {
        Map<DeleteKey, DeleteKey> keys = new HashMap<>();
        EqualityKeyEncoder encoder = new EqualityKeyEncoder(deleteSchema, keyFieldIds);
        for (DeleteFile delete : deletes) {
          long sequenceNumber = sequenceNumber(delete);
          try (CloseableIterable<Record> rows = readDeletes(delete)) {
            for (Record row : rows) {
              insert(keys, encoder.encode(row), sequenceNumber, memory);
            }
          } catch (IOException e) {
            throw new UncheckedIOException(
                "Cannot read equality delete file " + delete.location(), e);
          }
        }
        EqualityKeyEncoder dataEncoder = new EqualityKeyEncoder(dataSchema, keyFieldIds);
        int position = dataSchema.columns().size() - 1;
        for (int target = 0; target < targets.size(); target++) {
          try (CloseableIterable<Record> rows = readData(targets.get(target))) {
            for (Record row : rows) {
              probe(keys, dataEncoder.encode(row), target, (Long) row.get(position), positions);
            }
          } catch (IOException e) {
            throw new UncheckedIOException(
                "Cannot read data file " + targets.get(target).file().location(), e);
          }
        }
      }
    }

    private void joinSpilled(
        Path directory,
        int partitions,
        Map<String, PositionDeleteIndex> positions,
        JoinStatistics statistics) {
      try (MemoryReservation memory = new MemoryReservation(allocator)) {
        memory.add((long) partitions * SpillPartitions.BUFFER_BYTES);
        SpillPartitions deleteSpill = new SpillPartitions(directory, "deletes", partitions);
        try (deleteSpill) {
          spillDeletes(deleteSpill);
        }
        SpillPartitions dataSpill = new SpillPartitions(directory, "rows", partitions);
        try (dataSpill) {
          spillRows(dataSpill);
        }
        statistics.spilledBytes += deleteSpill.bytes() + dataSpill.bytes();
        statistics.spillFiles += 2 * partitions;
        memory.clear();
        for (int partition = 0; partition < partitions; partition++) {
          joinPartition(deleteSpill, dataSpill, partition, positions, memory);
          memory.clear();
        }
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot spill equality delete keys to " + directory, e);
      }
    }

    private void spillDeletes(SpillPartitions spill) throws IOException {
      EqualityKeyEncoder encoder = new EqualityKeyEncoder(deleteSchema, keyFieldIds);
      for (DeleteFile delete : deletes) {
        long sequenceNumber = sequenceNumber(delete);
        try (CloseableIterable<Record> rows = readDeletes(delete)) {
          for (Record row : rows) {
            byte[] key = encoder.encode(row);
            DataOutputStream output = spill.output(DeleteKey.partitionOf(key, spill.partitions()));
            output.writeLong(sequenceNumber);
            output.writeInt(key.length);
            output.write(key);
          }
        }
      }
    }

    private void spillRows(SpillPartitions spill) throws IOException {
      EqualityKeyEncoder encoder = new EqualityKeyEncoder(dataSchema, keyFieldIds);
      int position = dataSchema.columns().size() - 1;
      for (int target = 0; target < targets.size(); target++) {
        try (CloseableIterable<Record> rows = readData(targets.get(target))) {
          for (Record row : rows) {
            byte[] key = encoder.encode(row);
            DataOutputStream output = spill.output(DeleteKey.partitionOf(key, spill.partitions()));
            output.writeInt(target);
            output.writeLong((Long) row.get(position));
            output.writeInt(key.length);
            output.write(key);
          }
        }
      }
    }

    private void joinPartition(
        SpillPartitions deleteSpill,
        SpillPartitions dataSpill,
        int partition,
        Map<String, PositionDeleteIndex> positions,
        MemoryReservation memory)
        throws IOException {
      Map<DeleteKey, DeleteKey> keys = new HashMap<>();
      try (DataInputStream input = deleteSpill.open(partition)) {
        while (true) {
          long sequenceNumber;
          try {
            sequenceNumber = input.readLong();
          } catch (EOFException end) {
            break;
          }
          insert(keys, readKey(input), sequenceNumber, memory);
        }
      }
      deleteSpill.delete(partition);
      if (!keys.isEmpty()) {
        try (DataInputStream input = dataSpill.open(partition)) {
          while (true) {
            int target;
            try {
              target = input.readInt();
            } catch (EOFException end) {
              break;
            }
            long position = input.readLong();
            probe(keys, readKey(input), target, position, positions);
          }
        }
      }
      dataSpill.delete(partition);
    }

    private static byte[] readKey(DataInputStream input) throws IOException {
      byte[] key = new byte[input.readInt()];
      input.readFully(key);
      return key;
    }

    private void insert(
        Map<DeleteKey, DeleteKey> keys,
        byte[] bytes,
        long sequenceNumber,
        MemoryReservation memory) {
      DeleteKey key = new DeleteKey(bytes, sequenceNumber);
      DeleteKey existing = keys.putIfAbsent(key, key);
      if (existing == null) {
        memory.add(EqualityDeleteSizes.KEY_TABLE_OVERHEAD_BYTES + bytes.length);
      } else {
        existing.raiseSequenceNumber(sequenceNumber);
      }
    }

    private void probe(
        Map<DeleteKey, DeleteKey> keys,
        byte[] bytes,
        int target,
        long position,
        Map<String, PositionDeleteIndex> positions) {
      DeleteKey match = keys.get(DeleteKey.probe(bytes));
      if (match != null && match.maxSequenceNumber() > targetSequenceNumbers[target]) {
        positions
            .computeIfAbsent(
                targets.get(target).file().location(),
                location -> Deletes.toPositionIndex(CloseableIterable.empty()))
            .delete(position);
      }
    }

    private CloseableIterable<Record> readDeletes(DeleteFile delete) {
      if (delete.format() != FileFormat.PARQUET) {
        throw new UnsupportedOperationException(
            "Cannot apply "
                + delete.format()
                + " equality delete file "
                + delete.location()
                + " beyond the memory budget: LakeOps spills Parquet delete files only; raise the memory budget");
      }
      InputFile input = table.io().newInputFile(delete);
      return Parquet.read(input)
          .project(deleteSchema)
          .set(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED, "false")
          .createReaderFunc(
              fileSchema -> GenericParquetReaders.buildReader(deleteSchema, fileSchema))
          .build();
    }

    private CloseableIterable<Record> readData(FileScanTask task) {
      InputFile input = table.io().newInputFile(task.file());
      Map<Integer, ?> constants =
          PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant);
      return Parquet.read(input)
          .project(dataSchema)
          .set(ParquetInputFormat.HADOOP_VECTORED_IO_ENABLED, "false")
          .createReaderFunc(
              fileSchema -> GenericParquetReaders.buildReader(dataSchema, fileSchema, constants))
          .build();
    }
  }

  private static void deleteDirectory(Path directory) {
    try (Stream<Path> files = Files.walk(directory)) {
      files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
    } catch (IOException e) {
      // a leftover spill directory under the spill dir is harmless; nothing references it
    }
  }
}
