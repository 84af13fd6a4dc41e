package dev.lakeops.cli;

import dev.lakeops.catalog.CatalogConnector;
import dev.lakeops.catalog.CatalogSettings;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The Hadoop configuration of the command line's catalogs, read once per process. Hadoop's login
 * ({@link UserGroupInformation}, reached by the first file system a catalog opens) gets the same
 * configuration; left alone it builds one of its own and parses Hadoop's default resources a second
 * time. A catalog whose {@code io-impl} is an object store's own FileIO (S3, GCS, ADLS) gets an
 * empty configuration instead: it never opens a Hadoop file system, and reading Hadoop's default
 * resources and logging in cost a short command a tenth of a second of its critical path.
 */
final class CommandLineHadoop {
  private static final Set<String> HADOOP_FILE_IOS =
      Set.of("org.apache.iceberg.hadoop.HadoopFileIO", "org.apache.iceberg.io.ResolvingFileIO");

  private CommandLineHadoop() {}

  /** The configuration for the catalog {@code settings} describe. */
  static Configuration configurationFor(CatalogSettings settings) {
    String fileIo = settings.properties().get("io-impl");
    if (fileIo != null && !HADOOP_FILE_IOS.contains(fileIo.strip())) {
      return new Configuration(false);
    }
    return configuration();
  }

  /** A copy of the process's configuration (its resources already parsed), for one catalog. */
  static Configuration configuration() {
    return new Configuration(Shared.CONFIGURATION);
  }

  private static final class Shared {
    static final Configuration CONFIGURATION = sharedWithLogin();

    private static Configuration sharedWithLogin() {
      Configuration configuration = CatalogConnector.hadoopConfiguration();
      UserGroupInformation.setConfiguration(configuration);
      return configuration;
    }
  }
}
