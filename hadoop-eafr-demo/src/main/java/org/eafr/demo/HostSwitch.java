package org.eafr.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Turns a demo host's DataNode on or off through {@code scripts/lib/demo-host.sh}, as the host's power would: the same
 * switch ipmi_sim's chassis-control script calls, so every BMC kind acts on the host the same way.
 */
final class HostSwitch {
  private final Path script;
  private final DemoState state;

  HostSwitch(Path root, DemoState state) {
    this.script = DemoState.hostScript(root);
    this.state = state;
  }

  /** Runs {@code on} or {@code off} for {@code host} on behalf of {@code driver}; returns once the action is under way. */
  void power(DemoHosts.Host host, boolean on, DemoHosts.Driver driver) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(script.toString(), state.dir().toString(), String.valueOf(host.index()),
        on ? "on" : "off", driver.inventoryName()).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(state.logs().resolve("bmc-farm.log").toFile())).start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException(script + " " + (on ? "on" : "off") + " for " + host.name() + " did not return in 60 s");
    }
    if (process.exitValue() != 0) {
      throw new IOException(script + " " + (on ? "on" : "off") + " for " + host.name() + " failed with exit "
          + process.exitValue());
    }
  }
}
