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
 * nothing, as across a network partition where the peers' sockets stay open. {@link #admitNew} lets
 * connections made after it through while those made before stay frozen: a client gets data again
 * only if it gave up a hung connection and opened a new one. {@link #close} closes every socket, so
 * both sides see the connection end.
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
    private final List<Link> links = new CopyOnWriteArrayList<>();
    private boolean freezeNew; // guarded by gate
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

    /** One client connection; frozen is guarded by the proxy's gate. */
    private static final class Link {
        boolean frozen;
    }

    /** Stops passing bytes on, in both directions, on every connection old and new. */
    void freeze() {
        synchronized (gate) {
            freezeNew = true;
            links.forEach(link -> link.frozen = true);
        }
    }

    /** Connections made from now on pass bytes again; those made before stay frozen. */
    void admitNew() {
        synchronized (gate) {
            freezeNew = false;
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
                Link link = new Link();
                synchronized (gate) {
                    link.frozen = freezeNew;
                }
                links.add(link);
                pump(client, server, "proxy-up", link);
                pump(server, client, "proxy-down", link);
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException("proxy accept failed", e);
                }
            }
        }
    }

    private void pump(Socket from, Socket to, String name, Link link) {
        Thread thread =
                new Thread(
                        () -> {
                            byte[] bytes = new byte[16 * 1024];
                            try (InputStream in = from.getInputStream();
                                    OutputStream out = to.getOutputStream()) {
                                int read;
                                while ((read = in.read(bytes)) >= 0) {
                                    awaitThawed(link);
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

    /** Returns only when the link is not frozen (never, once frozen, until closed; then throws). */
    private void awaitThawed(Link link) throws InterruptedException, IOException {
        synchronized (gate) {
            while (link.frozen && !closed) {
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
