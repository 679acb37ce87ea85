package io.changegrid.service;

import java.util.concurrent.CountDownLatch;

/**
 * A component in a child JVM for {@link RequestedStopTest}: it runs until asked to stop, then takes
 * as long as its argument says (milliseconds) to stop, and prints its last line.
 */
public final class StopProbe {

    private StopProbe() {}

    public static void main(String[] args) throws InterruptedException {
        long stopMillis = Long.parseLong(args[0]);
        CountDownLatch stopped = new CountDownLatch(1);
        RequestedStop.install(
                "probe",
                () -> {
                    try {
                        Thread.sleep(stopMillis); // a final checkpoint that takes its time
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    stopped.countDown();
                });
        System.out.println("probe running");
        System.out.flush();
        stopped.await();
        System.out.println("probe stopped after its final checkpoint");
    }
}
