package org.eafr.placement.settings;

/**
 * Renders the reference of every setting (key, paper symbol, default, allowed range, meaning) from the settings
 * themselves, so the documentation cannot drift from the code: docs/settings.md embeds {@link #markdownTable()} and a
 * test keeps it current.
 */
public final class SettingsReference {
  private SettingsReference() {
  }

  public static String markdownTable() {
    StringBuilder table = new StringBuilder("| key | symbol | default | allowed | meaning |\n|---|---|---|---|---|\n");
    for (Setting<?> setting : EafrSettings.all()) {
      table.append("| `").append(setting.key()).append("` | ").append(setting.symbol()).append(" | ")
          .append(setting.defaultValue()).append(" | ").append(setting.range()).append(" | ")
          .append(setting.description()).append(" |\n");
    }
    return table.toString();
  }

  /** Prints the table, for regenerating docs/settings.md. */
  public static void main(String[] args) {
    System.out.print(markdownTable());
  }
}
