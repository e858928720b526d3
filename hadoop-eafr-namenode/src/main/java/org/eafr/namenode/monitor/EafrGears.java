package org.eafr.namenode.monitor;

import java.util.Map;
import org.eafr.namenode.gear.GearRuntime;
import org.eafr.namenode.gear.GearStatus;

/** The {@link EafrGearsMXBean}: each attribute read now from the {@link GearStatus}. */
public final class EafrGears implements EafrGearsMXBean {
  public static final String NAME = "EafrGears";

  private final GearRuntime gears;

  public EafrGears(GearRuntime gears) {
    this.gears = gears;
  }

  @Override
  public String getLayout() {
    return word("Layout");
  }

  @Override
  public String getGearPhase() {
    return word("GearPhase");
  }

  @Override
  public String getLayoutProblem() {
    return word("LayoutProblem");
  }

  @Override
  public String getGearMode() {
    return word("GearMode");
  }

  @Override
  public String getGearAutoLastDecision() {
    return word("GearAutoLastDecision");
  }

  @Override
  public String getGridObjective() {
    return word("GridObjective");
  }

  @Override
  public String getGridSignal() {
    return word("GridSignal");
  }

  @Override
  public String getGridSignalProblem() {
    return word("GridSignalProblem");
  }

  @Override
  public String getGridFallback() {
    return word("GridFallback");
  }

  @Override
  public String getReflectionHeldUntil() {
    return word("ReflectionHeldUntil");
  }

  @Override
  public String getReflectionDeadline() {
    return word("ReflectionDeadline");
  }

  @Override
  public String getColdMigrationHeldUntil() {
    return word("ColdMigrationHeldUntil");
  }

  @Override
  public String getColdMigrationDeadline() {
    return word("ColdMigrationDeadline");
  }

  @Override
  public String getTrimHeldUntil() {
    return word("TrimHeldUntil");
  }

  @Override
  public String getTrimDeadline() {
    return word("TrimDeadline");
  }

  private String word(String name) {
    Map<String, Object> values = GearStatus.of(gears).values();
    return (String) values.get(name);
  }
}
