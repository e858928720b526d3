package org.eafr.placement.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.eafr.placement.baseline.HdfsDefaultPlacement;
import org.eafr.placement.cluster.Server;
import org.eafr.placement.cluster.StorageReserve;
import org.eafr.placement.gear.ActiveSet;
import org.eafr.placement.gear.BlockPlacement;
import org.eafr.placement.gear.BlockRequest;
import org.eafr.placement.gear.ExpansionChain;
import org.eafr.placement.gear.layout.EqualWorkLayout;
import org.eafr.placement.gear.read.RecentLoad;
import org.eafr.placement.gear.springfs.SpringFsLayout;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Time of one new block's placement (3 replicas) on 3,000 servers in 30 racks: the equal-work layout with every server
 * on and in gear 0 (every non-primary offloaded), SpringFS with an offload set of 600, and HDFS's default placement on
 * the same servers as the baseline of the same run. The simulator places 500,000 files' blocks with these calls; a
 * NameNode calls them from chooseTarget.
 *
 * <p>Run: {@code scripts/bench-core.sh GearPlacementBench}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GearPlacementBench {
  private static final int SERVERS = 3_000;

  private List<Server> servers;
  private EqualWorkLayout equalWork;
  private SpringFsLayout springFs;
  private HdfsDefaultPlacement hdfs;
  private ActiveSet all;
  private ActiveSet gear0;
  private BlockRequest request;

  @Setup
  public void setUp() {
    servers = new ArrayList<>(SERVERS);
    for (int i = 0; i < SERVERS; i++) {
      servers.add(Server.builder("dn" + i).rack("/rack" + (i % 30)).serviceCapacity(10)
          .storageCapacity(4_000_000_000_000L).build());
    }
    ExpansionChain chain = ExpansionChain.rackInterleaved(servers);
    equalWork = new EqualWorkLayout(chain, EqualWorkLayout.defaultPrimaries(SERVERS, 3, 1), 1, 3);
    springFs = new SpringFsLayout(equalWork, RecentLoad.springFs(SERVERS, java.time.Clock.systemUTC()),
        new Random(1));
    springFs.offloadSet(600);
    hdfs = new HdfsDefaultPlacement(new StorageReserve(0), new Random(2));
    all = ActiveSet.all(chain);
    gear0 = equalWork.serversOn(0);
    request = BlockRequest.of("blk", 3);
  }

  @Benchmark
  public BlockPlacement equalWorkAllOn() {
    return equalWork.place(request, all);
  }

  @Benchmark
  public BlockPlacement equalWorkGear0() {
    return equalWork.place(request, gear0);
  }

  @Benchmark
  public BlockPlacement springFsAllOn() {
    return springFs.place(request, all);
  }

  @Benchmark
  public List<Server> hdfsDefaultBaseline() {
    return hdfs.choose("dn7", 3, 128_000_000L, servers);
  }
}
