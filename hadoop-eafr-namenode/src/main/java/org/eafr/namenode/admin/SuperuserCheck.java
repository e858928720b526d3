package org.eafr.namenode.admin;

import java.io.IOException;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Who may change EAFR's state through the NameNode's refresh channel, which checks nobody itself: the NameNode's own
 * user (the HDFS superuser) and members of {@code dfs.permissions.superusergroup}, as for {@code hdfs dfsadmin}.
 * Calls made inside the NameNode (no remote user) are allowed.
 */
public final class SuperuserCheck {
  private SuperuserCheck() {
  }

  /**
   * @param action what the caller asked for, for the error message
   * @throws AccessControlException naming the caller and who may
   */
  public static void check(Configuration conf, String action) throws IOException {
    UserGroupInformation caller = Server.getRemoteUser();
    if (caller == null) {
      return;
    }
    if (!isSuperuser(conf, caller)) {
      throw new AccessControlException("user " + caller.getShortUserName() + " may not " + action + ": only "
          + superuserText(conf) + " may");
    }
  }

  /** Whether {@code caller} is the NameNode's own user or a member of the superuser group. */
  static boolean isSuperuser(Configuration conf, UserGroupInformation caller) throws IOException {
    String superuser = UserGroupInformation.getLoginUser().getShortUserName();
    return caller.getShortUserName().equals(superuser) || Arrays.asList(caller.getGroupNames()).contains(
        supergroup(conf));
  }

  /** "hdfs or members of supergroup", for messages. */
  static String superuserText(Configuration conf) throws IOException {
    return UserGroupInformation.getLoginUser().getShortUserName() + " or members of " + supergroup(conf);
  }

  private static String supergroup(Configuration conf) {
    return conf.get(DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY,
        DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_DEFAULT);
  }
}
