package io.changegrid.gridkit.server;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;

/**
 * Picks a TCP port on the loopback interface that is free right now.
 *
 * <p>The port is released before the server binds it, so another process can take it in between;
 * callers detect that bind failure and pick again rather than trusting this answer.
 */
public final class FreePort {
    /** Every fixture listens here only: tests must never expose a server beyond this machine. */
    public static final String HOST = "127.0.0.1";

    private FreePort() {}

    /** A port free now on {@link #HOST}. */
    public static int pick() {
        try (var socket = new ServerSocket(0, 1, loopback())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free TCP port: host=" + HOST, e);
        }
    }

    static InetAddress loopback() {
        try {
            return InetAddress.getByName(HOST);
        } catch (UnknownHostException e) {
            // A literal IPv4 address is never looked up, so this cannot happen.
            throw new IllegalStateException("cannot parse loopback address: host=" + HOST, e);
        }
    }
}
