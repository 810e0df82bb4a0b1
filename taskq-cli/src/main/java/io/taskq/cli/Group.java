package io.taskq.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that only groups subcommands: without one it prints its usage and fails (2). */
abstract class Group implements Callable<Integer> {
  @Spec CommandSpec spec = CommandSpec.create();

  @Override
  public Integer call() {
    spec.commandLine().usage(spec.commandLine().getErr());
    return ExitCodes.USAGE;
  }
}
