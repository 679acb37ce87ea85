package io.changegrid.bench.relay;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/**
 * HTTP/1.1 GETs over one kept-alive connection, for polling a relay's status many times a second
 * while it is measured: a few reads and writes per poll, so the harness takes as little of the
 * shared cores as it can (a general HTTP client costs it a tenth of a core at this rate). Reads
 * bodies sent with a Content-Length or chunked; reconnects after any failure. With {@link BenchTls}
 * the connection is TLS (the relay's name checked against its certificate) and every GET carries
 * the token.
 *
 * <p>Not thread-safe: one harness thread polls.
 */
final class KeepAliveGet implements AutoCloseable {

    private final String host;
    private final int port;
    private final javax.net.SocketFactory sockets;
    private final String authorization; // an extra header line, or empty
    private Socket socket;
    private InputStream in;
    private OutputStream out;

    KeepAliveGet(String host, int port, BenchTls tls) {
        this.host = host;
        this.port = port;
        this.sockets =
                tls.enabled()
                        ? tls.sslContext().getSocketFactory()
                        : javax.net.SocketFactory.getDefault();
        this.authorization =
                tls.authorization() == null ? "" : "Authorization: " + tls.authorization() + "\r\n";
    }

    /**
     * The body of a 200 answer to {@code GET path}, or {@code null} (not listening, or not 200).
     */
    String get(String path) {
        try {
            if (socket == null) {
                socket = sockets.createSocket();
                if (socket instanceof SSLSocket secure) {
                    SSLParameters parameters = secure.getSSLParameters();
                    parameters.setEndpointIdentificationAlgorithm("HTTPS");
                    secure.setSSLParameters(parameters);
                }
                socket.connect(new InetSocketAddress(host, port), 1000);
                socket.setSoTimeout(5000);
                socket.setTcpNoDelay(true);
                in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
                out = socket.getOutputStream();
            }
            out.write(
                    ("GET "
                                    + path
                                    + " HTTP/1.1\r\nHost: "
                                    + host
                                    + ":"
                                    + port
                                    + "\r\n"
                                    + authorization
                                    + "\r\n")
                            .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String status = line();
            int length = -1;
            boolean chunked = false;
            boolean closes = false;
            for (String header = line(); !header.isEmpty(); header = line()) {
                String lower = header.toLowerCase(Locale.ROOT);
                if (lower.startsWith("content-length:")) {
                    length = Integer.parseInt(header.substring(15).trim());
                } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                    chunked = true;
                } else if (lower.startsWith("connection:") && lower.contains("close")) {
                    closes = true;
                }
            }
            String body = chunked ? chunkedBody() : body(length);
            if (closes || (!chunked && length < 0)) {
                close();
            }
            return status.startsWith("HTTP/1.1 200") ? body : null;
        } catch (IOException | RuntimeException e) {
            close(); // not listening yet, or the relay stopped: the next poll reconnects
            return null;
        }
    }

    private String body(int length) throws IOException {
        if (length < 0) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private String chunkedBody() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = Integer.parseInt(line().split(";")[0].trim(), 16);
                size > 0;
                size = Integer.parseInt(line().split(";")[0].trim(), 16)) {
            body.write(in.readNBytes(size));
            line(); // the CRLF after the chunk
        }
        for (String trailer = line(); !trailer.isEmpty(); trailer = line()) {
            // trailers: none expected, skipped
        }
        return body.toString(StandardCharsets.UTF_8);
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed mid-answer: port=" + port);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a socket we are giving up on; nothing is lost
            }
            socket = null;
        }
    }
}
