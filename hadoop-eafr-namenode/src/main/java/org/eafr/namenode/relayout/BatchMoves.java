package org.eafr.namenode.relayout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The moves one relayout batch starts, persisted before the first of them starts (the raw xattr {@value #XATTR} on the
 * gear state directory, through the edit log), so that a NameNode taking over a batch that a restart or failover cut
 * goes on with it: a move whose target holds the block is done and counted, one whose source still holds it is started
 * again, and the rest (HDFS dropped the source's copy) are left to the next walk. One edit per batch, besides the
 * record's; without it the moves of the cut batch, counted only in the lost NameNode's memory, went uncounted, and
 * the batch was planned again from blocks partly moved, so the plan and lower bound lost what those moves had done.
 *
 * <p>Encoding, compact so a batch fits one xattr (HDFS's {@code dfs.namenode.fs-limits.max-xattr-size}, 16,384 bytes
 * by default, name included): a version byte; the relayout's start time, walk and batch number; the DataNodes' ids once
 * each; per move the block id and length as differences from the move before (zig-zag varints: a file's blocks have
 * consecutive ids and equal lengths, one byte each) and the source's and target's indexes. Worked example (the unit
 * test checks it): started at 1,000 ms, walk 1, batch 2, blocks 1073741825 and 1073741826 of 1 MiB moved from
 * 127.0.0.1:9866 to 127.0.0.1:9867 and back: 52 bytes, a 37-byte header (15 per id), 11 for the first move and 4 for
 * the second. So the xattr holds some 4,000 moves of a file's blocks; a batch that plans more is cut to fewer files,
 * down to one, whose moves past the budget are left to a later walk.
 *
 * <p>Immutable once built; the relayout service's thread builds and reads it.
 */
final class BatchMoves {
  static final String XATTR = "trusted.eafr.relayout.batch";
  private static final int VERSION = 1;

  private final long startedMillis;
  private final int pass;
  private final long number;
  /** The DataNodes of the moves, each once; a move names its source and target by index. */
  private final List<String> dataNodes;
  private final long[] blocks;
  private final long[] lengths;
  private final int[] sourceOf;
  private final int[] targetOf;

  private BatchMoves(long startedMillis, int pass, long number, List<String> dataNodes, long[] blocks, long[] lengths,
      int[] sourceOf, int[] targetOf) {
    this.startedMillis = startedMillis;
    this.pass = pass;
    this.number = number;
    this.dataNodes = dataNodes;
    this.blocks = blocks;
    this.lengths = lengths;
    this.sourceOf = sourceOf;
    this.targetOf = targetOf;
  }

  /** The start time of the relayout the batch belongs to (its record's), so a newer relayout ignores it. */
  long startedMillis() {
    return startedMillis;
  }

  int pass() {
    return pass;
  }

  /** The batch's number in its relayout: 1 for the first; the record counts the moves of batches up to its own. */
  long number() {
    return number;
  }

  int size() {
    return blocks.length;
  }

  long block(int move) {
    return blocks[move];
  }

  long length(int move) {
    return lengths[move];
  }

  String source(int move) {
    return dataNodes.get(sourceOf[move]);
  }

  String target(int move) {
    return dataNodes.get(targetOf[move]);
  }

  byte[] toBytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 + 8 * blocks.length);
    out.write(VERSION);
    varint(out, startedMillis);
    varint(out, pass);
    varint(out, number);
    varint(out, dataNodes.size());
    for (String dataNode : dataNodes) {
      byte[] id = dataNode.getBytes(StandardCharsets.UTF_8);
      varint(out, id.length);
      out.write(id, 0, id.length);
    }
    varint(out, blocks.length);
    long block = 0;
    long length = 0;
    for (int m = 0; m < blocks.length; m++) {
      varint(out, zigZag(blocks[m] - block));
      varint(out, zigZag(lengths[m] - length));
      varint(out, sourceOf[m]);
      varint(out, targetOf[m]);
      block = blocks[m];
      length = lengths[m];
    }
    return out.toByteArray();
  }

  static BatchMoves fromBytes(byte[] bytes) throws IOException {
    ByteBuffer in = ByteBuffer.wrap(bytes);
    try {
      if (in.get() != VERSION) {
        throw new IOException("relayout batch record of version " + bytes[0] + ": expected " + VERSION);
      }
      long startedMillis = varint(in);
      int pass = (int) varint(in);
      long number = varint(in);
      List<String> dataNodes = new ArrayList<>();
      for (long d = varint(in); d > 0; d--) {
        byte[] id = new byte[(int) varint(in)];
        in.get(id);
        dataNodes.add(new String(id, StandardCharsets.UTF_8));
      }
      int moves = (int) varint(in);
      long[] blocks = new long[moves];
      long[] lengths = new long[moves];
      int[] sourceOf = new int[moves];
      int[] targetOf = new int[moves];
      long block = 0;
      long length = 0;
      for (int m = 0; m < moves; m++) {
        block += unZigZag(varint(in));
        length += unZigZag(varint(in));
        blocks[m] = block;
        lengths[m] = length;
        sourceOf[m] = (int) varint(in);
        targetOf[m] = (int) varint(in);
      }
      return new BatchMoves(startedMillis, pass, number, dataNodes, blocks, lengths, sourceOf, targetOf);
    } catch (RuntimeException truncated) {
      throw new IOException("relayout batch record of " + bytes.length + " bytes cannot be read: " + truncated, truncated);
    }
  }

  private static void varint(ByteArrayOutputStream out, long value) {
    long v = value;
    while ((v & ~0x7FL) != 0) {
      out.write((int) ((v & 0x7F) | 0x80));
      v >>>= 7;
    }
    out.write((int) v);
  }

  private static long varint(ByteBuffer in) {
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      byte b = in.get();
      value |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return value;
      }
    }
    throw new IllegalArgumentException("a varint longer than 10 bytes");
  }

  private static long zigZag(long v) {
    return (v << 1) ^ (v >> 63);
  }

  private static long unZigZag(long v) {
    return (v >>> 1) ^ -(v & 1);
  }

  /** Collects a batch's moves in the order they are queued, within a byte budget. */
  static final class Builder {
    private final long startedMillis;
    private final int pass;
    private final long number;
    private final Map<String, Integer> dataNodes = new LinkedHashMap<>();
    private final List<long[]> moves = new ArrayList<>();
    /** The encoded size so far, counted as {@link #toBytes} writes it (the move count's varint taken at 3 bytes). */
    private long size;

    Builder(long startedMillis, int pass, long number) {
      this.startedMillis = startedMillis;
      this.pass = pass;
      this.number = number;
      ByteArrayOutputStream header = new ByteArrayOutputStream();
      header.write(VERSION);
      varint(header, startedMillis);
      varint(header, pass);
      varint(header, number);
      size = header.size() + 3 + 3;
    }

    /** The encoded size if the move were added. */
    long sizeWith(long blockId, long length, String source, String target) {
      long[] last = moves.isEmpty() ? new long[] {0, 0} : moves.get(moves.size() - 1);
      long added = varintSize(zigZag(blockId - last[0])) + varintSize(zigZag(length - last[1]));
      int next = dataNodes.size();
      for (String dataNode : source.equals(target) ? List.of(source) : List.of(source, target)) {
        Integer index = dataNodes.get(dataNode);
        if (index == null) {
          int id = dataNode.getBytes(StandardCharsets.UTF_8).length;
          added += varintSize(id) + id + varintSize(next++);
        } else {
          added += varintSize(index);
        }
      }
      return size + added;
    }

    void add(long blockId, long length, String source, String target) {
      size = sizeWith(blockId, length, source, target);
      int from = dataNodes.computeIfAbsent(source, d -> dataNodes.size());
      int to = dataNodes.computeIfAbsent(target, d -> dataNodes.size());
      moves.add(new long[] {blockId, length, from, to});
    }

    long size() {
      return size;
    }

    int moves() {
      return moves.size();
    }

    BatchMoves build() {
      long[] blocks = new long[moves.size()];
      long[] lengths = new long[moves.size()];
      int[] sourceOf = new int[moves.size()];
      int[] targetOf = new int[moves.size()];
      for (int m = 0; m < blocks.length; m++) {
        blocks[m] = moves.get(m)[0];
        lengths[m] = moves.get(m)[1];
        sourceOf[m] = (int) moves.get(m)[2];
        targetOf[m] = (int) moves.get(m)[3];
      }
      return new BatchMoves(startedMillis, pass, number, new ArrayList<>(dataNodes.keySet()), blocks, lengths,
          sourceOf, targetOf);
    }

    private static int varintSize(long value) {
      int bytes = 1;
      for (long v = value >>> 7; v != 0; v >>>= 7) {
        bytes++;
      }
      return bytes;
    }
  }
}
