package io.changegrid.console.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code GET /} and {@code GET /assets/*}: the page, its script and its style sheet, read once from
 * the jar ({@code io/changegrid/console/assets/}); nothing comes from a CDN or the internet. Any
 * other path is a 404.
 */
final class AssetHandler extends Handler.Abstract.NonBlocking {

    private static final String ROOT = "io/changegrid/console/assets/";
    private static final Map<String, String> TYPES =
            Map.of(
                    "index.html", "text/html; charset=utf-8",
                    "console.js", "text/javascript; charset=utf-8",
                    "console.css", "text/css; charset=utf-8");

    private final Map<String, byte[]> assets;

    AssetHandler() {
        assets =
                Map.of(
                        "index.html", read("index.html"),
                        "console.js", read("console.js"),
                        "console.css", read("console.css"));
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        String name =
                path.equals("/")
                        ? "index.html"
                        : path.startsWith("/assets/") ? path.substring(8) : null;
        byte[] body = name == null ? null : assets.get(name);
        if (body == null) {
            JsonReply.error(response, callback, 404, "no such page: path=" + path);
            return true;
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, TYPES.get(name));
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-cache");
        response.write(true, ByteBuffer.wrap(body), callback);
        return true;
    }

    private static byte[] read(String name) {
        try (InputStream in =
                AssetHandler.class.getClassLoader().getResourceAsStream(ROOT + name)) {
            if (in == null) {
                throw new IllegalStateException(
                        "console asset missing from the jar: " + ROOT + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("console asset not read: " + ROOT + name, e);
        }
    }
}
