package dev.lakeops.cli;

import dev.lakeops.catalog.CatalogConnector;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * The Hadoop configuration of the command line's catalogs, read once per process. Hadoop's login
 * ({@link UserGroupInformation}, reached by the first file system a catalog opens) gets the same
 * configuration; left alone it builds one of its own and parses Hadoop's default resources a second
 * time.
 */
final class CommandLineHadoop {
  private CommandLineHadoop() {}

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
