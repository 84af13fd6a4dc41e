package dev.lakeops.cli;

import java.util.Map;

/** Prints a command's report: one JSON object with {@code --json}, else the text for people. */
final class ReportOutput {
  private ReportOutput() {}

  static void print(boolean json, Map<String, Object> report, String human) {
    System.out.println(json ? JsonOutput.write(report) : human);
  }
}
