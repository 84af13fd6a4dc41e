package dev.lakeops.trino.engine;

import static java.util.Objects.requireNonNull;

import io.trino.client.ClientSession;
import io.trino.client.QueryError;
import io.trino.client.QueryStatusInfo;
import io.trino.client.StatementClient;
import io.trino.client.StatementClientFactory;
import java.net.URI;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import okhttp3.OkHttpClient;

/**
 * SQL over Trino's HTTP protocol with Trino's own client library, as the CLI and JDBC driver do.
 */
final class TrinoHttpQueries {
  private final OkHttpClient httpClient = new OkHttpClient();
  private final ClientSession session;

  TrinoHttpQueries(URI server, String user) {
    this.session =
        ClientSession.builder()
            .server(requireNonNull(server, "server is null"))
            .user(Optional.of(user))
            .source("lakeops-server-test")
            .timeZone(ZoneId.of("UTC"))
            .locale(Locale.ROOT)
            .build();
  }

  /**
   * Runs one statement and returns its rows; a failed query throws with Trino's error name and
   * message.
   */
  List<List<Object>> execute(String sql) {
    List<List<Object>> rows = new ArrayList<>();
    try (StatementClient client =
        StatementClientFactory.newStatementClient(httpClient, session, sql)) {
      while (client.isRunning()) {
        for (List<Object> row : client.currentRows()) {
          rows.add(row);
        }
        client.advance();
      }
      QueryStatusInfo status =
          client.isFinished() ? client.finalStatusInfo() : client.currentStatusInfo();
      QueryError error = status.getError();
      if (error != null) {
        throw new IllegalStateException(error.getErrorName() + ": " + error.getMessage());
      }
    }
    return rows;
  }
}
