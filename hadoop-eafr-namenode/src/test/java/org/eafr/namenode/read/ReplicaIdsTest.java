package org.eafr.namenode.read;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.junit.jupiter.api.Test;

class ReplicaIdsTest {
  private static DatanodeID dataNode(String ip) {
    return new DatanodeID(ip, "dn1.eafr.local", "uuid-1", 9866, 9864, 0, 9867);
  }

  @Test
  void copiesOfOneDataNodeGetTheSameIdObject() {
    DatanodeID registered = dataNode("10.0.0.1");
    ReplicaIds ids = new ReplicaIds();
    String first = ids.of(new DatanodeID(registered));
    // The premise: HDFS's copy builds a new transfer-address String each time.
    assertThat(new DatanodeID(registered).getXferAddr()).isNotSameAs(new DatanodeID(registered).getXferAddr());
    assertThat(ids.of(new DatanodeID(registered))).isSameAs(first).isEqualTo("10.0.0.1:9866");
  }

  @Test
  void aDataNodeAtANewAddressGetsTheNewId() {
    ReplicaIds ids = new ReplicaIds();
    ids.of(new DatanodeID(dataNode("10.0.0.1")));
    String moved = ids.of(new DatanodeID(dataNode("10.0.0.2")));
    assertThat(moved).isEqualTo("10.0.0.2:9866");
    assertThat(ids.of(new DatanodeID(dataNode("10.0.0.2")))).isSameAs(moved);
  }

  @Test
  void aReplicaWithoutUuidKeepsItsOwnAddress() {
    DatanodeID noUuid = new DatanodeID("10.0.0.3", "dn3", "", 9866, 9864, 0, 9867);
    assertThat(new ReplicaIds().of(noUuid)).isEqualTo("10.0.0.3:9866");
  }
}
