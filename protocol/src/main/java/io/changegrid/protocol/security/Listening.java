package io.changegrid.protocol.security;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Where a server listens, as its exposure warnings need to know. */
public final class Listening {

    private Listening() {}

    /**
     * Whether {@code host} is only reachable from this machine; an unresolvable name counts as
     * exposed (the warning it leads to is cheap).
     */
    public static boolean isLoopback(String host) {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false; // unresolvable here: assume exposed
        }
    }
}
