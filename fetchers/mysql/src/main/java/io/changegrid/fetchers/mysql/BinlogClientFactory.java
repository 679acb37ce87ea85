package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderV4Deserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import java.net.Socket;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.LongPredicate;

/**
 * Builds the binlog clients a fetcher connects with: positioned at a transaction boundary, with the
 * library's own reconnection off (it would resume mid-transaction), server heartbeats on, and the
 * lossless row deserializers installed, which leave the rows of tables the fetcher does not publish
 * unread, and table maps read by a reader that knows MariaDB's column types ({@link
 * TableMapReadingDeserializer}).
 *
 * <p>A connection that hangs (a network partition, a server that stopped answering while the socket
 * stays open) is noticed: the socket has a read timeout of {@link #readTimeout} and TCP keepalive.
 * The server sends a heartbeat whenever it has had nothing to send for {@code
 * source.heartbeatInterval}, so a connection that delivers nothing for many such intervals is dead;
 * the read fails, the client disconnects and the fetcher reconnects at the last complete
 * transaction as after any connection loss.
 */
final class BinlogClientFactory {

    /** As many table maps as the library keeps by default; MySQL table ids grow over time. */
    private static final int TABLE_MAP_CACHE = 10_000;

    /** Heartbeat intervals of silence after which a binlog connection is taken as hung. */
    static final int SILENT_HEARTBEATS = 10;

    /** The least read timeout, for heartbeat intervals of a fraction of a second. */
    static final Duration MIN_READ_TIMEOUT = Duration.ofSeconds(5);

    private BinlogClientFactory() {}

    /**
     * How long a read on the binlog socket may wait: {@value #SILENT_HEARTBEATS} heartbeat
     * intervals, at least {@link #MIN_READ_TIMEOUT}.
     */
    static Duration readTimeout(Duration heartbeatInterval) {
        Duration silent = heartbeatInterval.multipliedBy(SILENT_HEARTBEATS);
        return silent.compareTo(MIN_READ_TIMEOUT) < 0 ? MIN_READ_TIMEOUT : silent;
    }

    /** A client at a file and offset whose row images are copied into one reused buffer. */
    static BinaryLogClient create(
            BinlogFetcherConfig config, BinlogPosition position, LongPredicate skippedTables) {
        return create(
                config,
                new ResumePosition(position, ""),
                false,
                tableMaps -> skippedTables,
                RowBuffers.single());
    }

    /**
     * @param byGtid whether to ask for the transactions after {@code resume}'s GTID (MariaDB's
     *     {@code @slave_connect_state}), on whichever server answers, instead of at its file and
     *     offset
     * @param skippedTables binlog table ids whose rows are not deserialized (see {@link
     *     LosslessRowDeserializers#install}), given the client's table-map cache
     * @param buffers where rows events' row images are copied
     */
    static BinaryLogClient create(
            BinlogFetcherConfig config,
            ResumePosition resume,
            boolean byGtid,
            Function<Map<Long, TableMapEventData>, LongPredicate> skippedTables,
            RowBuffers buffers) {
        BinlogPosition position = resume.position();
        BinaryLogClient client =
                new BinaryLogClient(config.host(), config.port(), config.user(), config.password());
        client.setServerId(config.serverId());
        client.setKeepAlive(false);
        client.setHeartbeatInterval(config.heartbeatInterval().toMillis());
        client.setConnectTimeout(config.connectTimeout().toMillis());
        int readTimeoutMillis = (int) readTimeout(config.heartbeatInterval()).toMillis();
        client.setSocketFactory(
                () -> {
                    Socket socket = new Socket();
                    socket.setSoTimeout(readTimeoutMillis);
                    socket.setKeepAlive(true);
                    return socket;
                });
        if (byGtid) {
            client.setGtidSet(resume.gtid());
        } else {
            client.setBinlogFilename(position.file());
            client.setBinlogPosition(position.offset());
        }
        client.setEventDeserializer(deserializer(skippedTables, buffers));
        BinlogTls.configure(client, config.tls());
        return client;
    }

    /**
     * A deserializer whose row deserializers share its table-map cache: the library keeps that
     * cache private, so it is built here and handed to both.
     */
    @SuppressWarnings("rawtypes") // the library's constructor takes a map of raw deserializers
    static EventDeserializer deserializer(
            Function<Map<Long, TableMapEventData>, LongPredicate> skippedTables,
            RowBuffers buffers) {
        Map<Long, TableMapEventData> tableMaps = tableMapCache();
        EventDeserializer defaults = new EventDeserializer();
        Map<EventType, EventDataDeserializer> byType = new EnumMap<>(EventType.class);
        for (EventType type : EventType.values()) {
            byType.put(type, defaults.getEventDataDeserializer(type));
        }
        EventDeserializer deserializer =
                new TableMapReadingDeserializer(
                        new EventHeaderV4Deserializer(),
                        new NullEventDataDeserializer(),
                        byType,
                        tableMaps);
        LosslessRowDeserializers.install(
                deserializer, tableMaps, skippedTables.apply(tableMaps), buffers);
        deserializer.setCompatibilityMode(
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        return deserializer;
    }

    /** A table-map cache by binlog table id, as large as the library's, least recent dropped. */
    static Map<Long, TableMapEventData> tableMapCache() {
        return new LinkedHashMap<>(1024, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Long, TableMapEventData> eldest) {
                return size() > TABLE_MAP_CACHE;
            }
        };
    }
}
