package org.eafr.namenode.gear;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.EnumSet;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.Status;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockManager;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.token.Token;

/**
 * Moves one replica the way the Balancer does: asks the target DataNode to copy the block from the source
 * (DataTransferProtocol's replaceBlock, throttled by the DataNodes' {@code dfs.datanode.balance.*} settings) with the
 * source as the deletion hint, so once the target reports the new replica the NameNode removes the source's copy as
 * excess. Blocking; the gear service and relayout run it on their own threads. Plain data transfer: a cluster with
 * {@code dfs.data.transfer.protection} (SASL on the data port) is not supported by this mover.
 */
public final class BlockMover {
  private final BlockManager blocks;

  public BlockMover(BlockManager blocks) {
    this.blocks = blocks;
  }

  /** Copies {@code block} from {@code source} to {@code target} and returns once the target has it. */
  public void move(Block block, DatanodeInfo source, DatanodeInfo target) throws IOException {
    ExtendedBlock extended = new ExtendedBlock(blocks.getBlockPoolId(), block);
    Token<BlockTokenIdentifier> token = blocks.getBlockTokenSecretManager() != null
        ? blocks.getBlockTokenSecretManager().generateToken(null, extended,
            EnumSet.of(BlockTokenIdentifier.AccessMode.REPLACE, BlockTokenIdentifier.AccessMode.COPY),
            new StorageType[] {StorageType.DEFAULT}, new String[0])
        : new Token<>();
    try (Socket socket = new Socket()) {
      InetSocketAddress address = NetUtils.createSocketAddr(target.getXferAddr());
      socket.connect(address, HdfsConstants.READ_TIMEOUT);
      socket.setSoTimeout(HdfsConstants.READ_TIMEOUT * 5);
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
      DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
      new Sender(out).replaceBlock(extended, StorageType.DEFAULT, token, source.getDatanodeUuid(), source, null);
      out.flush();
      BlockOpResponseProto response = BlockOpResponseProto.parseFrom(PBHelperClient.vintPrefixed(in));
      while (response.getStatus() == Status.IN_PROGRESS) {
        response = BlockOpResponseProto.parseFrom(PBHelperClient.vintPrefixed(in));
      }
      if (response.getStatus() != Status.SUCCESS) {
        throw new IOException("moving " + block + " from " + source.getXferAddr() + " to " + target.getXferAddr()
            + " failed: " + response.getStatus() + " " + response.getMessage());
      }
    }
  }
}
