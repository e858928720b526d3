package org.eafr.namenode;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Paths;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The NameNode module's packages depend on each other in one direction (docs/architecture.md draws it): the
 * composition root at the top, the parts Hadoop builds by name beside it, the services, then the ports and the
 * translation to the core at the bottom. A cycle would make every package of it one unit to read, test and change.
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
}
