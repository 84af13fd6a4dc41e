package dev.lakeops.trino.engine;

import io.trino.server.Server;

/**
 * Starts a Trino 483 server the way the server's launcher does ({@code new
 * Server().start(version)}, configured by {@code -Dconfig=etc/config.properties}); trino-main has
 * no main class of its own.
 */
public final class TrinoServerMain {
  private TrinoServerMain() {}

  public static void main(String[] args) {
    new Server().start(args.length > 0 ? args[0] : "483");
  }
}
