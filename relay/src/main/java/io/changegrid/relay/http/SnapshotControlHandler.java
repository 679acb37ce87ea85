package io.changegrid.relay.http;

import io.changegrid.protocol.RelayApi;
import io.changegrid.relay.response.JsonResponse;
import io.changegrid.relay.security.SecurityHandler;
import io.changegrid.relay.snapshot.ChunkSource;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /v1/snapshot/pause} and {@code /v1/snapshot/resume}: stop and restart this relay's
 * snapshot chunk reads, while live streaming goes on (docs/bootstrap.md). Answers {@code
 * {"paused":...}} with the state after the request; repeating a request changes nothing.
 */
final class SnapshotControlHandler extends Handler.Abstract.NonBlocking {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotControlHandler.class);

    private final ChunkSource chunks;
    private final boolean pause;

    SnapshotControlHandler(ChunkSource chunks, boolean pause) {
        this.chunks = chunks;
        this.pause = pause;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (JsonResponse.rejectUnless("POST", request, response, callback)) {
            return true;
        }
        if (pause) {
            chunks.pause();
        } else {
            chunks.resume();
        }
        LOG.info(
                "snapshot chunk reads {}: principal={}, path={}",
                pause ? "paused" : "resumed",
                SecurityHandler.grant(request).principal(),
                pause ? RelayApi.SNAPSHOT_PAUSE : RelayApi.SNAPSHOT_RESUME);
        JsonResponse.send(
                response, callback, 200, json -> json.writeBooleanField("paused", chunks.paused()));
        return true;
    }
}
