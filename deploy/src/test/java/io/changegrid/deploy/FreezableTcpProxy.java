package io.changegrid.deploy;

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
 * A real TCP forwarder between a client and a server that a test can freeze: once frozen, bytes are
 * still read from both sides but none is passed on, and new connections are accepted but get
 * nothing, as across a network partition where the peers' sockets stay open. {@link #close} closes
 * every socket, so both sides see the connection end.
 *
 * <p>Threading: one acceptor thread and two pump threads per connection, all daemons; {@link
 * #freeze} and {@link #close} from any thread.
 */
final class FreezableTcpProxy implements AutoCloseable {

    private final ServerSocket listener;
    private final String targetHost;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private boolean frozen;
    private volatile boolean closed;

    /** Listens on a free port of the loopback address, forwarding to {@code host:port}. */
    FreezableTcpProxy(String host, int port) throws IOException {
        this.targetHost = host;
        this.targetPort = port;
        this.listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The port clients connect to. */
    int port() {
        return listener.getLocalPort();
    }

    /** Stops passing bytes on, in both directions, on every connection old and new. */
    void freeze() {
        synchronized (gate) {
            frozen = true;
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
            socket.close();
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(server);
                pump(client, server, "proxy-up");
                pump(server, client, "proxy-down");
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException("proxy accept failed", e);
                }
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
                                // The other side or close() ended the connection: end this pump.
                            } finally {
                                closeQuietly(from);
                                closeQuietly(to);
                            }
                        },
                        name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Returns only when not frozen (never, once frozen, until closed; then it throws). */
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
