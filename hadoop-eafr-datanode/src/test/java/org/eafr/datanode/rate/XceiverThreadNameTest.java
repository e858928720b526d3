package org.eafr.datanode.rate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class XceiverThreadNameTest {

  @Test
  void clientWrite_givesTheClientsConnection() {
    assertThat(XceiverThreadName.peer("DataXceiver for client DFSClient_NONMAPREDUCE_-1241_1 at /127.0.0.1:45678"
        + " [Receiving block BP-99-127.0.0.1-1700000000000:blk_1073741825_1001]")).isEqualTo("127.0.0.1:45678");
  }

  @Test
  void reReplication_withAnEmptyClientName_givesTheSendingDataNode() {
    assertThat(XceiverThreadName.peer("DataXceiver for client  at /10.213.1.7:40112 [Receiving block BP-1:blk_2_3]"))
        .isEqualTo("10.213.1.7:40112");
  }

  @Test
  void beforeTheFirstOperation_givesThePeer() {
    assertThat(XceiverThreadName.peer("DataXceiver for client /10.213.1.7:40112 [Waiting for operation #1]"))
        .isEqualTo("10.213.1.7:40112");
    assertThat(XceiverThreadName.peer("DataXceiver for client /10.213.1.7:40112")).isEqualTo("10.213.1.7:40112");
  }

  @Test
  void otherThreads_giveNone() {
    assertThat(XceiverThreadName.peer("main")).isNull();
    assertThat(XceiverThreadName.peer(null)).isNull();
    assertThat(XceiverThreadName.peer("DataXceiver for client  [Receiving block x]")).isNull();
  }
}
