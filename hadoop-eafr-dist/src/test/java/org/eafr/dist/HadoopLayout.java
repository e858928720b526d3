package org.eafr.dist;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * A Hadoop 3 installation as the binary tarball lays it out, built from Maven artifacts: hadoop-common in
 * share/hadoop/common, its dependencies in share/hadoop/common/lib, hadoop-hdfs and hadoop-hdfs-client in
 * share/hadoop/hdfs with webapps/ beside them, an empty share/hadoop/hdfs/lib, libexec/shellprofile.d, etc/hadoop and
 * the stand-in bin/hdfs. Jars are symbolic links into the local Maven repository.
 */
final class HadoopLayout {
  private HadoopLayout() {
  }

  /** Builds the layout under {@code home} from the jars listed (colon-separated) in {@code classpathFile}. */
  static void assemble(Path home, Path classpathFile) throws IOException {
    Path common = Files.createDirectories(home.resolve("share/hadoop/common"));
    Path commonLib = Files.createDirectories(common.resolve("lib"));
    Path hdfs = Files.createDirectories(home.resolve("share/hadoop/hdfs"));
    Files.createDirectories(hdfs.resolve("lib"));
    Files.createDirectories(home.resolve("libexec/shellprofile.d"));
    Files.createDirectories(home.resolve("etc/hadoop"));
    for (String entry : Files.readString(classpathFile).trim().split(":")) {
      Path jar = Paths.get(entry);
      String name = jar.getFileName().toString();
      if (name.matches("hadoop-hdfs-[0-9.]+-tests\\.jar")) {
        extractWebapps(jar, hdfs);
      } else if (name.endsWith("-tests.jar")) {
        continue;
      } else if (name.matches("hadoop-common-[0-9.]+\\.jar")) {
        Files.createSymbolicLink(common.resolve(name), jar);
      } else if (name.matches("hadoop-hdfs(-client)?-[0-9.]+\\.jar")) {
        Files.createSymbolicLink(hdfs.resolve(name), jar);
      } else {
        Files.createSymbolicLink(commonLib.resolve(name), jar);
      }
    }
    Path launcher = Files.createDirectories(home.resolve("bin")).resolve("hdfs");
    Files.copy(Paths.get("src", "test", "hadoop-launcher", "hdfs"), launcher, StandardCopyOption.REPLACE_EXISTING);
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
  }

  /** Hadoop ships the daemons' web applications in share/hadoop/hdfs/webapps; Maven only in the tests jar. */
  private static void extractWebapps(Path testsJar, Path hdfs) throws IOException {
    try (JarFile jar = new JarFile(testsJar.toFile())) {
      for (JarEntry entry : (Iterable<JarEntry>) jar.stream()::iterator) {
        if (!entry.getName().startsWith("webapps/") || entry.isDirectory()) {
          continue;
        }
        Path target = hdfs.resolve(entry.getName()).normalize();
        if (!target.startsWith(hdfs)) {
          throw new IOException("entry " + entry.getName() + " of " + testsJar + " leaves " + hdfs);
        }
        Files.createDirectories(target.getParent());
        try (InputStream in = jar.getInputStream(entry)) {
          Files.copy(in, target);
        }
      }
    }
  }
}
