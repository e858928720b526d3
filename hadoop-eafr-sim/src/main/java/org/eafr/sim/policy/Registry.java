package org.eafr.sim.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.eafr.placement.gear.policy.GearedPolicies;
import org.eafr.placement.gear.policy.GearedPolicySpec;
import org.eafr.placement.grid.Objective;
import org.eafr.placement.settings.InvalidSettingException;

/**
 * Every named policy, one line each. Adding a policy means a class and a line here; nothing is found by reflection.
 * The geared policies are the core's {@link GearedPolicies}, the same entries a NameNode selects with eafr.layout.
 */
public final class Registry {
  private static final Map<String, Entry> POLICIES = new LinkedHashMap<>();

  /** A registered policy: its name, what it is, and how to build it. */
  public record Entry(String name, String description, Function<PolicyEnvironment, Policy> factory) {
  }

  static {
    register("hdfs", "stock HDFS: 3 random replicas across racks, random reads", HdfsPolicy::new);
    register("ideal", "SpringFS 5.2 oracle: fewest servers carrying the load, floored by one copy of the data"
        + " (machine-hours and energy only)", IdealPolicy::new);
    register("ideal-dwell", "ideal whose servers, once switched on, stay on for eafr.gear.min-dwell.ms, as the gear"
        + " controller's do (machine-hours and energy only)",
        env -> new IdealPolicy("ideal-dwell", env.drawingAs("ideal"), true));
    register("cdrm", "CDRM: replicas for availability A at failure probability lambda, least-loaded placement",
        CdrmPolicy::new);
    register("scarlett", "Scarlett: max(peak concurrent reads + 1, 3) replicas per learning window",
        ScarlettPolicy::new);
    register("aptstore", "AptStore: replicas from predicted popularity (PPA)", AptStorePolicy::new);
    register(GearedPolicies.RABBIT, RabbitPolicy::new);
    register(GearedPolicies.SPRINGFS, SpringFsPolicy::new);
    register(GearedPolicies.ACCORDION, env -> new LayoutPolicy(GearedPolicies.ACCORDION.name(), env,
        GearedPolicies.ACCORDION));
    register(GearedPolicies.EAFR_GEARED, EafrGearedPolicy::new);
    register("springfs-carbon", "springfs with its passive migration held for the hours of lowest forecast carbon"
        + " intensity before its deadline (eafr.grid.*, sim.grid.signal)",
        env -> new SpringFsPolicy("springfs-carbon", env.drawingAs("springfs")).scheduledFor(Objective.CARBON));
    register("springfs-price", "springfs with its passive migration held for the cheapest day-ahead hours",
        env -> new SpringFsPolicy("springfs-price", env.drawingAs("springfs")).scheduledFor(Objective.PRICE));
    register("eafr-geared-carbon", "eafr-geared with its cold migrations and the layout's reflection held for the"
        + " hours of lowest forecast carbon intensity before their deadlines",
        env -> new EafrGearedPolicy("eafr-geared-carbon", env.drawingAs("eafr-geared")).scheduledFor(Objective.CARBON));
    register("eafr-geared-price", "eafr-geared with its cold migrations and reflection held for the cheapest"
        + " day-ahead hours", env -> new EafrGearedPolicy("eafr-geared-price", env.drawingAs("eafr-geared")).scheduledFor(Objective.PRICE));
    register("eafr", "EAFR: every part on", env -> new EafrPolicy("eafr", EafrPolicy.Parts.ALL, env));
    register("eafr-no-ewma", "EAFR with a random hot or standby destination instead of Eq. 10-12",
        env -> new EafrPolicy("eafr-no-ewma", new EafrPolicy.Parts(false, true, true, true), env));
    register("eafr-no-rate-control", "EAFR without receive-side rate control (Alg. 2)",
        env -> new EafrPolicy("eafr-no-rate-control", new EafrPolicy.Parts(true, false, true, true), env));
    register("eafr-random-reads", "EAFR reading a random replica instead of Alg. 3",
        env -> new EafrPolicy("eafr-random-reads", new EafrPolicy.Parts(true, true, false, true), env));
    register("eafr-random-recovery", "EAFR recovering with random source and destination instead of Alg. 4",
        env -> new EafrPolicy("eafr-random-recovery", new EafrPolicy.Parts(true, true, true, false), env));
  }

  private Registry() {
  }

  private static void register(String name, String description, Function<PolicyEnvironment, Policy> factory) {
    POLICIES.put(name, new Entry(name, description, factory));
  }

  /** A geared policy of the core registry, under its name and description there. */
  private static void register(GearedPolicySpec<?> geared, Function<PolicyEnvironment, Policy> factory) {
    register(geared.name(), geared.description(), factory);
  }

  /** The policy named {@code name}; an unknown name throws listing the known ones. */
  public static Entry get(String name) {
    Entry entry = POLICIES.get(name);
    if (entry == null) {
      throw new InvalidSettingException("policy", name, "unknown policy; known policies are " + names());
    }
    return entry;
  }

  public static List<String> names() {
    return List.copyOf(POLICIES.keySet());
  }

  public static List<Entry> entries() {
    return List.copyOf(POLICIES.values());
  }
}
