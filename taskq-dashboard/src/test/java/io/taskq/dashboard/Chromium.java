package io.taskq.dashboard;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A real headless Chromium (W6): Debian's {@code chromium} driven through Debian's {@code
 * chromedriver} by Selenium, never a downloaded browser (both paths are given, so Selenium Manager
 * is never asked). Each instance has a fresh profile directory and no background network of its
 * own. Screenshots go to {@code target/screenshots}.
 */
final class Chromium implements AutoCloseable {
  static final Path SCREENSHOTS = Path.of("target", "screenshots");
  private static final String BINARY =
      System.getProperty("taskq.test.chromium", "/usr/bin/chromium");
  private static final String DRIVER =
      System.getProperty("taskq.test.chromedriver", "/usr/bin/chromedriver");

  private final ChromeDriver driver;
  private final Path profile;

  private Chromium(ChromeDriver driver, Path profile) {
    this.driver = driver;
    this.profile = profile;
  }

  /** A new browser with a window of {@code width} x {@code height}. */
  static Chromium start(int width, int height) {
    Path profile;
    try {
      profile = Files.createTempDirectory("taskq-chromium-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ChromeOptions options = new ChromeOptions();
    options.setBinary(BINARY);
    options.addArguments(
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-extensions",
        "--user-data-dir=" + profile,
        "--window-size=" + width + "," + height);
    ChromeDriverService service =
        new ChromeDriverService.Builder()
            .usingDriverExecutable(new File(DRIVER))
            .usingAnyFreePort()
            .build();
    ChromeDriver driver = new ChromeDriver(service, options);
    driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
    return new Chromium(driver, profile);
  }

  ChromeDriver driver() {
    return driver;
  }

  /** Writes the current page to {@code target/screenshots/name.png}. */
  Path screenshot(String name) {
    try {
      Files.createDirectories(SCREENSHOTS);
      Path file = SCREENSHOTS.resolve(name + ".png");
      Files.write(file, driver.getScreenshotAs(OutputType.BYTES));
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      driver.quit();
    } finally {
      deleteQuietly(profile);
    }
  }

  private static void deleteQuietly(Path dir) {
    try (var files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // a leftover temporary profile is harmless
    }
  }
}
