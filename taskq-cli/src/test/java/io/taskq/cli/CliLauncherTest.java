package io.taskq.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.taskq.testing.TaskQTest;
import io.taskq.testing.TestServices;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** A8: {@code bin/taskq} at the repository root runs the CLI (built classes, plain java). */
@TaskQTest
@Tag("A8")
class CliLauncherTest {
  @Test
  void binTaskq_migratesAndShowsStatus(TestServices services) throws Exception {
    Path launcher = Path.of("..", "bin", "taskq").toAbsolutePath().normalize();
    assertThat(launcher.toFile().canExecute()).as(launcher + " is executable").isTrue();
    Result migrate = run(launcher, services, "migrate");
    assertThat(migrate.code()).as(migrate.output()).isZero();
    Result status = run(launcher, services, "status", "--json");
    assertThat(status.code()).as(status.output()).isZero();
    assertThat(status.output()).contains("\"schema\":\"" + services.schema() + "\"");
  }

  record Result(int code, String output) {}

  private static Result run(Path launcher, TestServices services, String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = launcher.toString();
    System.arraycopy(args, 0, command, 1, args.length);
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
    pb.environment().put("TASKQ_DATABASE_URL", services.jdbcUrl());
    pb.environment().put("TASKQ_SCHEMA_NAME", services.schema());
    pb.directory(new File(".."));
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), output);
  }
}
