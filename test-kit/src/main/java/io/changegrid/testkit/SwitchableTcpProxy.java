package io.changegrid.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A real TCP forwarder standing for a database's virtual address: a test moves it to another server
 * ({@link #switchTo}), which ends every connection, as when a VIP moves or DNS changes, so clients
 * reconnect to the new server. It can also {@link #freeze}: bytes are still read from both sides
 * but none is passed on, as across a network partition where the peers' sockets stay open. A
 * connection to a server that is down is closed at once.
 *
 * <p>Threading: one acceptor thread and two pump threads per connection, all daemons; every method
 * from any thread.
 */
public final class SwitchableTcpProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private volatile String targetHost;
    private volatile int targetPort;
    private boolean frozen;
    private volatile boolean closed;

    /** Listens on a free port of the loopback address, forwarding to {@code host:port}. */
    public SwitchableTcpProxy(String host, int port) throws IOException {
        this.targetHost = host;
        this.targetPort = port;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "proxy-accept-" + port());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port clients connect to. */
    public int port() {
        return listener.getLocalPort();
    }

    /** Stops passing bytes on, in both directions, on every connection old and new. */
    public void freeze() {
        synchronized (gate) {
            frozen = true;
        }
    }

    /**
     * Sends new connections to {@code host:port}, ends every current one and thaws: the address now
     * leads to another server.
     */
    public void switchTo(String host, int port) {
        targetHost = host;
        targetPort = port;
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
        synchronized (gate) {
            frozen = false;
            gate.notifyAll();
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        synchronized (gate) {
            gate.notifyAll();
        }
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }

    private void accept() {
        while (!closed) {
            Socket client;
            try {
                client = listener.accept();
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException("proxy accept failed: port=" + port(), e);
                }
                return;
            }
            try {
                Socket server = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, "proxy-up");
                pump(server, client, "proxy-down");
            } catch (IOException e) {
                // The server is down: the client sees its connection end, as it would.
                closeQuietly(client);
            }
        }
    }

    private void pump(Socket from, Socket to, String name) {
        Thread thread =
                new Thread(
                        () -> {
                            byte[] bytes = new byte[16 * 1024];
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                int read;
                                while ((read = in.read(bytes)) >= 0) {
                                    awaitThawed();
                                    out.write(bytes, 0, read);
                                    out.flush();
                                }
                            } catch (IOException | InterruptedException e) {
                                // The other side, a switch or close() ended the connection.
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                            }
                        },
                        name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Returns when not frozen; throws once the connection's socket was closed meanwhile. */
    private void awaitThawed() throws InterruptedException, IOException {
        synchronized (gate) {
            while (frozen && !closed) {
                gate.wait();
            }
        }
        if (closed) {
            throw new IOException("proxy closed");
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closing to end the connection: a failure leaves nothing more to do.
        }
    }
}
