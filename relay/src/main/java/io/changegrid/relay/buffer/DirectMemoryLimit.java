package io.changegrid.relay.buffer;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;

/**
 * The JVM's direct memory limit and use, read through the platform MXBeans because the JDK keeps
 * its own copy ({@code jdk.internal.misc.VM.maxDirectMemory()}) internal.
 */
public final class DirectMemoryLimit {

    private DirectMemoryLimit() {}

    /**
     * {@code -XX:MaxDirectMemorySize} if set, else the maximum heap, which is what the JDK uses
     * when the flag is 0 (its default).
     */
    public static long maxBytes() {
        long heapMax = Runtime.getRuntime().maxMemory();
        HotSpotDiagnosticMXBean hotSpot =
                ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        if (hotSpot == null) {
            return heapMax;
        }
        long flag = Long.parseLong(hotSpot.getVMOption("MaxDirectMemorySize").getValue());
        return flag > 0 ? flag : heapMax;
    }

    /** Direct memory in use now, by every direct buffer of the JVM. */
    static long usedBytes() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return 0;
    }
}
