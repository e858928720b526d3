package org.eafr.placement.recovery;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The outcome of Alg. 4 for one failed server: the copies to make, in the order of the lost files, and the files that
 * cannot be re-replicated now. Every lost file appears in exactly one of the two lists. Immutable.
 */
public final class RecoveryPlan {
  private final List<RecoveryAssignment> assignments;
  private final List<UnrecoverableFile> unrecoverable;

  public RecoveryPlan(List<RecoveryAssignment> assignments, List<UnrecoverableFile> unrecoverable) {
    this.assignments = Collections.unmodifiableList(new ArrayList<>(assignments));
    this.unrecoverable = Collections.unmodifiableList(new ArrayList<>(unrecoverable));
  }

  public List<RecoveryAssignment> assignments() {
    return assignments;
  }

  public List<UnrecoverableFile> unrecoverable() {
    return unrecoverable;
  }

  @Override
  public boolean equals(Object o) {
    if (!(o instanceof RecoveryPlan)) {
      return false;
    }
    RecoveryPlan p = (RecoveryPlan) o;
    return assignments.equals(p.assignments) && unrecoverable.equals(p.unrecoverable);
  }

  @Override
  public int hashCode() {
    return 31 * assignments.hashCode() + unrecoverable.hashCode();
  }

  @Override
  public String toString() {
    return "RecoveryPlan[copies " + assignments + ", unrecoverable " + unrecoverable + "]";
  }
}
