package io.changegrid.testkit;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;

/** Checks on ports from the outside, as a client would see them. */
final class Ports {
    private Ports() {}

    static boolean acceptsConnections(String host, int port) {
        try (var socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false; // refused or timed out: nobody is listening
        }
    }
}
