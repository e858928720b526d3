package org.eafr.namenode.admin;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.junit.jupiter.api.Test;

/** Who may poll or take a DataNode's sleep request (the MiniDFSCluster side is PowerAgentTest of the DataNode). */
class SleepAgentAnswersTest {
  private static final String DN5 = "dn/dn5.example.com@EXAMPLE.COM";

  @Test
  void theDataNodesOwnKerberosPrincipalAndTheSuperuserMayAsk() {
    assertThat(SleepAgentAnswers.refusal(DN5, AuthenticationMethod.KERBEROS, false, DN5)).isNull();
    assertThat(SleepAgentAnswers.refusal("hdfs", AuthenticationMethod.SIMPLE, true, "")).isNull();
    assertThat(SleepAgentAnswers.refusal("hdfs/nn1.example.com@EXAMPLE.COM", AuthenticationMethod.KERBEROS, true,
        DN5)).isNull();
  }

  @Test
  void anotherDataNodeAUserOrADelegationTokenIsRefusedByName() {
    assertThat(SleepAgentAnswers.refusal("dn/dn6.example.com@EXAMPLE.COM", AuthenticationMethod.KERBEROS, false,
        DN5)).isEqualTo("user dn/dn6.example.com@EXAMPLE.COM (authenticated by KERBEROS)");
    assertThat(SleepAgentAnswers.refusal("mallory", AuthenticationMethod.SIMPLE, false, ""))
        .isEqualTo("user mallory (authenticated by SIMPLE)");
    assertThat(SleepAgentAnswers.refusal(DN5, AuthenticationMethod.SIMPLE, false, DN5))
        .isEqualTo("user " + DN5 + " (authenticated by SIMPLE)");
    assertThat(SleepAgentAnswers.refusal("hdfs", AuthenticationMethod.TOKEN, true, DN5))
        .isEqualTo("user hdfs (authenticated by TOKEN), a delegation token,");
  }
}
