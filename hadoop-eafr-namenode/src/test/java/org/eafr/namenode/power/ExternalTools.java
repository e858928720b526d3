package org.eafr.namenode.power;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Assumptions;

/**
 * Finds the real tools the power tests drive (ipmi_sim, ipmitool, openssl, the sushy-tools emulator). A missing tool
 * fails the test, naming the install step; a developer without the tools may set {@value #ALLOW_MISSING}=true in the
 * environment to skip those tests with the same message instead.
 */
final class ExternalTools {
  /** The environment variable that turns a missing tool's failure into a skip. */
  static final String ALLOW_MISSING = "EAFR_TESTS_ALLOW_MISSING_TOOLS";

  private ExternalTools() {
  }

  /** The absolute path of {@code name} on PATH. */
  static String require(String name, String debianPackage) {
    String path = System.getenv().getOrDefault("PATH", "");
    for (String dir : path.split(File.pathSeparator)) {
      Path candidate = Paths.get(dir, name);
      if (Files.isExecutable(candidate)) {
        return candidate.toString();
      }
    }
    return missing(name + " is not on PATH: run scripts/install-deps.sh (Debian package " + debianPackage + ")");
  }

  /** The sushy-emulator of the venv scripts/install-deps.sh makes ($EAFR_SUSHY_VENV or ~/.cache/hadoop-eafr/...). */
  static Path sushyVenv() {
    String configured = System.getenv("EAFR_SUSHY_VENV");
    Path venv = configured != null && !configured.isEmpty() ? Paths.get(configured)
        : Paths.get(System.getProperty("user.home"), ".cache", "hadoop-eafr", "sushy-venv");
    if (!Files.isExecutable(venv.resolve("bin/sushy-emulator"))) {
      missing("sushy-emulator is not in " + venv + ": run scripts/install-deps.sh (PyPI package sushy-tools in a"
          + " venv)");
    }
    return venv;
  }

  private static String missing(String message) {
    if (!"true".equals(System.getenv(ALLOW_MISSING))) {
      fail(message + " (or set " + ALLOW_MISSING + "=true to skip the tests that need it)");
    }
    Assumptions.abort(message);
    return null;
  }
}
