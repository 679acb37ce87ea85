package io.changegrid.console.http;

import io.changegrid.console.control.ControlOperation;
import io.changegrid.console.control.ControlRejected;
import io.changegrid.console.control.GroupOperations;
import java.io.IOException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.Fields;

/**
 * {@code POST} control operations under {@code /api/groups/}:
 *
 * <pre>
 * POST /api/groups/{group}/pause
 * POST /api/groups/{group}/resume
 * POST /api/groups/{group}/partitions/{p}/pause
 * POST /api/groups/{group}/partitions/{p}/resume
 * POST /api/groups/{group}/partitions/{p}/reset?scn={scn}
 * </pre>
 *
 * Answers 200 {@code {"version":n}} (the control node's version written), 4xx naming what is wrong,
 * 502 if ZooKeeper could not be written. Blocking: it waits for ZooKeeper.
 */
final class ControlHandler extends Handler.Abstract {

    static final String PREFIX = "/api/groups/";

    private final GroupOperations operations;
    private final Runnable written;

    /**
     * @param written told after every accepted operation (the sampler samples again)
     */
    ControlHandler(GroupOperations operations, Runnable written) {
        this.operations = operations;
        this.written = written;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!"POST".equals(request.getMethod())) {
            response.getHeaders().put(HttpHeader.ALLOW, "POST");
            JsonReply.error(
                    response,
                    callback,
                    405,
                    "method not allowed: method=" + request.getMethod() + ", allowed=POST");
            return true;
        }
        String path = request.getHttpURI().getPath();
        try {
            ControlOperation operation = parse(path, Request.extractQueryParameters(request));
            int version =
                    operations.apply(
                            operation, (String) request.getAttribute(AuthenticationGate.OPERATOR));
            written.run();
            JsonReply.send(response, callback, 200, "{\"version\":" + version + "}");
        } catch (ControlRejected e) {
            JsonReply.error(response, callback, e.httpStatus(), e.getMessage());
        } catch (IOException e) {
            JsonReply.error(response, callback, 502, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            JsonReply.error(response, callback, 503, "console stopping");
        }
        return true;
    }

    /** The operation a path names. */
    static ControlOperation parse(String path, Fields query) throws ControlRejected {
        String[] parts = path.substring(PREFIX.length()).split("/", -1);
        String group = parts[0];
        if (group.isEmpty()) {
            throw new ControlRejected(400, "no group in the path: path=" + path);
        }
        if (parts.length == 2) {
            switch (parts[1]) {
                case "pause":
                    return new ControlOperation.PauseGroup(group, true);
                case "resume":
                    return new ControlOperation.PauseGroup(group, false);
                default:
                    break;
            }
        } else if (parts.length == 4 && parts[1].equals("partitions")) {
            long number = number(parts[2], "partition", path);
            if (number < 0 || number > Integer.MAX_VALUE) {
                throw new ControlRejected(
                        400, "no such partition: partition=" + number + ", path=" + path);
            }
            int partition = (int) number;
            switch (parts[3]) {
                case "pause":
                    return new ControlOperation.PausePartition(group, partition, true);
                case "resume":
                    return new ControlOperation.PausePartition(group, partition, false);
                case "reset":
                    String scn = query.getValue("scn");
                    if (scn == null) {
                        throw new ControlRejected(
                                400, "reset needs the scn parameter: path=" + path);
                    }
                    return new ControlOperation.ResetCheckpoint(
                            group, partition, number(scn, "scn", path));
                case "reseed":
                    return new ControlOperation.Reseed(group, partition);
                default:
                    break;
            }
        }
        throw new ControlRejected(404, "no such control operation: path=" + path);
    }

    private static long number(String text, String name, String path) throws ControlRejected {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new ControlRejected(
                    400, name + " is not a number: " + name + "=" + text + ", path=" + path);
        }
    }
}
