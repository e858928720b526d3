package org.eafr.placement;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The core is what its hosts share (the NameNode and DataNode adapters, the simulator, the demo): no class of it may
 * use a class of a host or of Hadoop, so the simulator evaluates the same code the daemons run.
 */
class CoreDependsOnNoHostTest {

  @Test
  void noCoreClassUsesAHostOrHadoop() {
    JavaClasses core = new ClassFileImporter().importPath(Paths.get("target", "classes"));
    noClasses().that().resideInAPackage("org.eafr.placement..").should().dependOnClassesThat()
        .resideInAnyPackage("org.eafr.namenode..", "org.eafr.datanode..", "org.eafr.sim..", "org.eafr.demo..",
            "org.eafr.dist..", "org.apache.hadoop..")
        .check(core);
  }
}
