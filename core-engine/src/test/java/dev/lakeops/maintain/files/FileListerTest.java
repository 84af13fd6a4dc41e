package dev.lakeops.maintain.files;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.lakeops.testing.ObjectKeys;
import dev.lakeops.testing.S3TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.hadoop.HadoopFileIO;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.io.FileInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which listing a FileIO gets: a directory walk on local disk, a prefix listing elsewhere. */
class FileListerTest {
  @TempDir Path temp;

  @Test
  void objectStorageIsListedByPrefixThroughTheFileIo() throws Exception {
    try (S3TestServer server = S3TestServer.start(temp);
        PrefixCountingS3FileIO io = new PrefixCountingS3FileIO()) {
      io.initialize(server.fileIoProperties());
      String table = server.location("warehouse/db/t");
      ObjectKeys.put(io, table + "/data/day=1/a.parquet", "a");
      ObjectKeys.put(io, table + "/data/day=2/b.parquet", "b");
      ObjectKeys.put(io, table + "/data/_temporary/c.parquet", "hidden");
      ObjectKeys.put(io, table + "/metadata/v1.metadata.json", "{}");
      ObjectKeys.put(io, server.location("warehouse/db/t2/data/other.parquet"), "next table");

      List<String> listed = locations(FileLister.forFileIo(io, 2), table);

      assertThat(listed)
          .containsExactlyInAnyOrder(
              table + "/data/day=1/a.parquet",
              table + "/data/day=2/b.parquet",
              table + "/metadata/v1.metadata.json");
      assertThat(io.prefixListings).hasValue(1);
    }
  }

  @Test
  void localDiskIsWalkedDirectoryByDirectory() throws Exception {
    Path table = temp.resolve("t");
    Files.createDirectories(table.resolve("data/day=1"));
    Files.writeString(table.resolve("data/day=1/a.parquet"), "a");
    Files.createDirectories(table.resolve("data/_temporary"));
    Files.writeString(table.resolve("data/_temporary/c.parquet"), "hidden");
    PrefixCountingHadoopFileIO io = new PrefixCountingHadoopFileIO();

    List<String> listed = locations(FileLister.forFileIo(io, 2), table.toString());

    assertThat(listed).containsExactly("file:" + table.resolve("data/day=1/a.parquet"));
    assertThat(io.prefixListings).hasValue(0);
  }

  @Test
  void aFileIoThatCannotListIsRefusedWithTheFix() {
    assertThatThrownBy(
            () -> FileLister.forFileIo(new NotListingFileIo(), 2).list("s3://lake/t").close())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "FileIO "
                + NotListingFileIo.class.getName()
                + " cannot list s3://lake/t (it does not implement SupportsPrefixOperations):"
                + " orphan files cannot be found for this table; use a FileIO that lists by"
                + " prefix, such as S3FileIO or HadoopFileIO");
  }

  private static List<String> locations(FileLister lister, String location) {
    try (Stream<ListedFile> files = lister.list(location)) {
      return files.map(ListedFile::location).toList();
    }
  }

  /** S3FileIO that counts its prefix listings. */
  private static final class PrefixCountingS3FileIO extends S3FileIO {
    private final AtomicInteger prefixListings = new AtomicInteger();

    @Override
    public Iterable<FileInfo> listPrefix(String prefix) {
      prefixListings.incrementAndGet();
      return super.listPrefix(prefix);
    }
  }

  /** HadoopFileIO that counts its prefix listings. */
  private static final class PrefixCountingHadoopFileIO extends HadoopFileIO {
    private final AtomicInteger prefixListings = new AtomicInteger();

    PrefixCountingHadoopFileIO() {
      super(new Configuration());
    }

    @Override
    public Iterable<FileInfo> listPrefix(String prefix) {
      prefixListings.incrementAndGet();
      return super.listPrefix(prefix);
    }
  }

  /** A FileIO without prefix listing: reads and writes, no listing. */
  private static final class NotListingFileIo extends InMemoryFileIO {}
}
