package io.taskq.cli;

import picocli.CommandLine;

/** {@code taskq --version}: the version the jar was built as. */
final class CliVersion implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = TaskQCli.class.getPackage().getImplementationVersion();
    return new String[] {"taskq " + (v == null ? "(development build)" : v)};
  }
}
