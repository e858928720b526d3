# hadoop-eafr's Hadoop shell profile: adds `hdfs eafr` (the EAFR admin command) to a stock Hadoop 3 installation.
# Copy it into ${HADOOP_CONF_DIR}/shellprofile.d/ or ${HADOOP_HOME}/libexec/shellprofile.d/; the hdfs script sources
# it (the release tarball ships it as libexec/shellprofile.d/hadoop-eafr.sh; docs/operations.md). The EAFR jars must be
# on the hdfs client's classpath: put them in share/hadoop/hdfs/lib (as for the NameNode), or set HADOOP_EAFR_HOME to
# an unpacked release tarball (its share/hadoop/hdfs/lib) or to a folder whose lib/ holds them.

if [[ "${HADOOP_SHELL_EXECNAME}" = hdfs ]]; then
  hadoop_add_subcommand "eafr" admin "EAFR: status, nodes, gear, power, plan, roles reload (hadoop-eafr)"
fi

## @description  hdfs eafr: runs org.eafr.namenode.admin.AdminTool
function hdfs_subcommand_eafr
{
  # shellcheck disable=SC2034
  HADOOP_CLASSNAME=org.eafr.namenode.admin.AdminTool
  if [[ -n "${HADOOP_EAFR_HOME:-}" ]]; then
    hadoop_add_classpath "${HADOOP_EAFR_HOME}/share/hadoop/hdfs/lib/*" || true
    hadoop_add_classpath "${HADOOP_EAFR_HOME}/lib/*" || true
  fi
}
