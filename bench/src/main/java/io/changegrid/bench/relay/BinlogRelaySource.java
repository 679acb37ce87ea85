package io.changegrid.bench.relay;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.fetchers.mysql.ResumePosition;

/**
 * Relays reading a MySQL/MariaDB binlog from {@code from}, each with its own server id.
 *
 * @param source the server the load went into
 * @param from where every relay starts
 */
public record BinlogRelaySource(BenchSource source, BinlogPosition from) implements RelaySource {

    /** Server ids of relays start here; the bare reader uses another. */
    static final int FIRST_SERVER_ID = 7001;

    @Override
    public void configure(ObjectNode node, int index) {
        node.put("host", source.host());
        node.put("port", source.port());
        node.put("user", source.user());
        node.put("password", source.password());
        node.put("serverId", FIRST_SERVER_ID + index);
        node.put("start", from.toString());
    }

    @Override
    public String database() {
        return source.database();
    }

    @Override
    public long scnOf(String position) {
        return ResumePosition.parse(position).position().scn();
    }
}
