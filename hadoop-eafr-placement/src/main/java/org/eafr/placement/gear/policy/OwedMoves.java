package org.eafr.placement.gear.policy;

import java.util.Optional;
import org.eafr.placement.gear.springfs.PassiveMigration;
import org.eafr.placement.settings.EafrSettings;

/**
 * How a geared policy brings home the replicas it wrote away from their homes while those slept: reflection once the
 * homes are on (Accordion Sec. 3.4, Rabbit's cleanup, EAFR on gears), or SpringFS's passive migration, 1/T of what is
 * owed per period with T = {@code eafr.gear.migration-threshold} ({@link PassiveMigration}).
 */
public enum OwedMoves {
  REFLECTION,
  PASSIVE_MIGRATION;

  /**
   * The passive migration of {@code settings} when this is {@link #PASSIVE_MIGRATION}, one server moving
   * {@code blocksPerServerPeriod} blocks per control period; empty for reflection.
   */
  public Optional<PassiveMigration> migration(EafrSettings settings, double blocksPerServerPeriod) {
    return this == PASSIVE_MIGRATION
        ? Optional.of(new PassiveMigration(settings.get(EafrSettings.GEAR_MIGRATION_THRESHOLD), blocksPerServerPeriod))
        : Optional.empty();
  }
}
