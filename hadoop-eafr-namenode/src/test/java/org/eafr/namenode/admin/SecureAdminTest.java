package org.eafr.namenode.admin;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.eafr.namenode.monitor.ReplicationMonitorPlugin;
import org.eafr.namenode.testing.EafrCluster;
import org.junit.jupiter.api.Test;

/**
 * {@code hdfs eafr} on a secure cluster: a MiniKdc, a kerberized MiniDFSCluster with {@code hadoop.rpc.protection =
 * privacy}, the NameNode and the tool authenticated by Kerberos. The HDFS superuser's principal runs reading and
 * changing verbs; another principal is refused {@code status}, the changing verbs and {@code power status};
 * the DataNode's own principal (as its power agent authenticates; here a client of the test, since one JVM has one
 * login user and the DataNodes run as the NameNode's) is answered {@code sleep poll} for its DataNode, which the other
 * principal is refused.
 */
class SecureAdminTest {

  @Test
  void eafrVerbs_asTheSuperuserAnotherPrincipalAndTheDataNodes_overKerberosWithPrivacy() throws Exception {
    Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
    Files.createDirectories(tmp);
    File dir = Files.createTempDirectory(tmp, "secure-eafr").toFile();
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), dir);
    kdc.start();
    try {
      File keytab = new File(dir, "eafr.keytab");
      String superuser = UserGroupInformation.getLoginUser().getShortUserName();
      kdc.createPrincipal(keytab, superuser + "/localhost", "dn/localhost", "HTTP/localhost", "alice/localhost");
      String realm = "@" + kdc.getRealm();
      // one JVM has one login user: the DataNodes run as the NameNode's principal, as in Hadoop's own secure tests
      Configuration conf = secureConf(superuser + "/localhost" + realm, superuser + "/localhost" + realm,
          "HTTP/localhost" + realm, keytab);
      UserGroupInformation.setConfiguration(conf);
      UserGroupInformation.loginUserFromKeytab(superuser + "/localhost" + realm, keytab.getPath());
      try (EafrCluster cluster = EafrCluster.start(conf, new String[] {"/r1", "/r1"})) {
        AdminRun status = AdminRun.run(conf, "status");
        assertThat(status.code).as(status.err).isZero();
        assertThat(status.out).contains("DataNodes per role:");
        AdminRun reload = AdminRun.run(conf, "roles", "reload");
        assertThat(reload.code).as(reload.err).isZero();

        UserGroupInformation alice = UserGroupInformation.loginUserFromKeytabAndReturnUGI("alice/localhost" + realm,
            keytab.getPath());
        AdminRun statusDenied = as(alice, conf, "status");
        assertThat(statusDenied.code).isEqualTo(1);
        assertThat(statusDenied.err).contains("user alice may not run 'hdfs eafr status'");
        AdminRun denied = as(alice, conf, "roles", "reload");
        assertThat(denied.code).isEqualTo(1);
        assertThat(denied.err).contains("user alice may not run 'hdfs eafr roles reload'");
        assertThat(as(alice, conf, "gear", "2").err).contains("user alice may not run 'hdfs eafr gear'");
        assertThat(as(alice, conf, "power", "status", "dn1").err)
            .contains("user alice may not run 'hdfs eafr power status'");

        String uuid = cluster.dataNode(0).getDatanodeUuid();
        // the principal a DataNode of its own process would have: the NameNode answers its agent as that principal
        cluster.nameNode().getConf().set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, "dn/localhost" + realm);
        UserGroupInformation dataNode = UserGroupInformation.loginUserFromKeytabAndReturnUGI("dn/localhost" + realm,
            keytab.getPath());
        AdminRun poll = as(dataNode, conf, "sleep", "poll", uuid);
        assertThat(poll.code).as(poll.err).isZero();
        assertThat(poll.out).contains(uuid);
        AdminRun foreign = as(alice, conf, "sleep", "poll", uuid);
        assertThat(foreign.code).isEqualTo(1);
        assertThat(foreign.err).contains("may not ask 'sleep poll' for DataNode");
      }
    } finally {
      kdc.stop();
      // the next test class in this JVM logs in as the OS user again, not as the keytab's principal
      UserGroupInformation.reset();
      UserGroupInformation.setConfiguration(new Configuration());
    }
  }

  private static AdminRun as(UserGroupInformation user, Configuration conf, String... args) throws Exception {
    return user.doAs((PrivilegedExceptionAction<AdminRun>) () -> AdminRun.run(conf, args));
  }

  private static Configuration secureConf(String nameNodePrincipal, String dataNodePrincipal, String httpPrincipal,
      File keytab) throws java.io.IOException {
    Configuration conf = EafrCluster.baseConf("secure-eafr");
    conf.set(DFSConfigKeys.DFS_NAMENODE_PLUGINS_KEY, ReplicationMonitorPlugin.class.getName());
    SecurityUtil.setAuthenticationMethod(AuthenticationMethod.KERBEROS, conf);
    conf.set(CommonConfigurationKeys.HADOOP_RPC_PROTECTION, "privacy");
    conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, nameNodePrincipal);
    conf.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, keytab.getPath());
    conf.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, dataNodePrincipal);
    conf.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, keytab.getPath());
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, httpPrincipal);
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY, keytab.getPath());
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    conf.setBoolean("ignore.secure.ports.for.testing", true); // no privileged ports or SASL data transfer needed here
    return conf;
  }
}
