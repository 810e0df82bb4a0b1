package io.taskq.cli;

import java.io.PrintStream;

/** The progress line of a bulk operation, redrawn on stderr after each committed batch. */
final class Progress {
  private final PrintStream err;
  private final String verb;
  private boolean drawn;

  Progress(PrintStream err, String verb) {
    this.err = err;
    this.verb = verb;
  }

  void batch(int batches, long done) {
    int width = 20;
    int filled = batches % (width + 1);
    err.print(
        "\r["
            + "#".repeat(filled)
            + " ".repeat(width - filled)
            + "] "
            + done
            + " "
            + verb
            + ", "
            + batches
            + " batches committed");
    err.flush();
    drawn = true;
  }

  void done() {
    if (drawn) {
      err.println();
    }
  }
}
