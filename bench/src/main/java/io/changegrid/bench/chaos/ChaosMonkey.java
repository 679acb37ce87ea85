package io.changegrid.bench.chaos;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Kills one component at a time with SIGKILL and starts it again, at seeded random moments: a pause
 * between {@code gapMin} and {@code gapMax}, a kill, a time down between {@code downMin} and {@code
 * downMax}, a restart. The kinds (relay, applier, zookeeper, source) take turns in a seeded
 * shuffled order, so a run of a few minutes kills each kind; the instance of a kind is drawn at
 * random. Meanwhile every component is watched: one found dead that was not killed is recorded as
 * an unexpected exit and started again.
 *
 * <p>Threading: runs on the caller's thread.
 */
final class ChaosMonkey {

    /** A kill or an unexpected exit, at seconds into the chaos. */
    record Incident(double atSeconds, String target, String what) {}

    private static final long WATCH_NANOS = TimeUnit.MILLISECONDS.toNanos(200);

    private final Map<String, List<ChaosTarget>> kinds;
    private final Random random;
    private final Duration gapMin;
    private final Duration gapMax;
    private final Duration downMin;
    private final Duration downMax;
    private final Map<String, Integer> kills = new LinkedHashMap<>();
    private final List<Incident> incidents = new ArrayList<>();
    private final Deque<String> turn = new ArrayDeque<>();
    private final long startNanos = System.nanoTime();

    ChaosMonkey(
            Map<String, List<ChaosTarget>> kinds,
            long seed,
            Duration gapMin,
            Duration gapMax,
            Duration downMin,
            Duration downMax) {
        this.kinds = kinds;
        this.random = new Random(seed);
        this.gapMin = gapMin;
        this.gapMax = gapMax;
        this.downMin = downMin;
        this.downMax = downMax;
        kinds.keySet().forEach(kind -> kills.put(kind, 0));
    }

    /** Kills and restarts until {@code duration} has passed; every component is up on return. */
    void run(Duration duration) throws Exception {
        long end = startNanos + duration.toNanos();
        while (true) {
            watchUntil(Math.min(end, System.nanoTime() + between(gapMin, gapMax)), null);
            if (System.nanoTime() >= end) {
                return;
            }
            String kind = nextKind();
            List<ChaosTarget> instances = kinds.get(kind);
            ChaosTarget victim = instances.get(random.nextInt(instances.size()));
            long down = between(downMin, downMax);
            victim.kill();
            kills.merge(kind, 1, Integer::sum);
            record(
                    victim,
                    String.format(java.util.Locale.ROOT, "kill -9, down %.1f s", down / 1e9));
            watchUntil(System.nanoTime() + down, victim);
            victim.start();
        }
    }

    /** Every component that is down started again (the end of the chaos, before the drain). */
    void reviveAll() throws Exception {
        watchUntil(System.nanoTime(), null);
    }

    Map<String, Integer> kills() {
        return kills;
    }

    List<Incident> incidents() {
        return incidents;
    }

    /** Unexpected exits: components found dead that nobody killed. */
    long unexpectedExits() {
        return incidents.stream().filter(incident -> !incident.what().startsWith("kill")).count();
    }

    private String nextKind() {
        if (turn.isEmpty()) {
            List<String> order = new ArrayList<>(kinds.keySet());
            Collections.shuffle(order, random);
            turn.addAll(order);
        }
        return turn.poll();
    }

    /** Until {@code until}, restarts any component found dead except {@code down}. */
    private void watchUntil(long until, ChaosTarget down) throws Exception {
        do {
            for (List<ChaosTarget> instances : kinds.values()) {
                for (ChaosTarget target : instances) {
                    if (target != down && !target.isAlive()) {
                        record(target, "exited on its own (" + target.exitDescription() + ")");
                        target.start();
                    }
                }
            }
            long left = until - System.nanoTime();
            if (left > 0) {
                LockSupport.parkNanos(Math.min(left, WATCH_NANOS));
            }
        } while (System.nanoTime() < until);
    }

    private void record(ChaosTarget target, String what) {
        Incident incident =
                new Incident((System.nanoTime() - startNanos) / 1e9, target.name(), what);
        incidents.add(incident);
        System.out.printf(
                java.util.Locale.ROOT,
                "chaos t=%6.1f s  %-10s %s%n",
                incident.atSeconds(),
                incident.target(),
                incident.what());
    }

    private long between(Duration min, Duration max) {
        return min.toNanos() + (long) (random.nextDouble() * (max.toNanos() - min.toNanos()));
    }
}
