package org.eafr.namenode;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Paths;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The NameNode module's packages depend on each other in one direction (docs/architecture.md draws it): the NameNode
 * plugin on top, the parts Hadoop builds by name and {@code hdfs eafr} below it, then the composition root
 * ({@code runtime.EafrRuntime}), the services, and the translation to the core and the settings at the bottom. A
 * cycle would make every package of it one unit to read, test and change.
 */
class PackageDependenciesTest {
  private static JavaClasses classes;

  @BeforeAll
  static void importMainClasses() {
    classes = new ClassFileImporter().importPath(Paths.get("target", "classes"));
  }

  @Test
  void packagesAreFreeOfCycles() {
    slices().matching("org.eafr.namenode.(*)..").should().beFreeOfCycles().check(classes);
  }

  /** Subpackages too: here {@code power} and {@code power.driver} are slices of their own. */
  @Test
  void subpackagesAreFreeOfCycles() {
    slices().matching("org.eafr.namenode.(**)").should().beFreeOfCycles().check(classes);
  }
}
