package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.BinaryLogClient;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderV4Deserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.NullEventDataDeserializer;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Builds the binlog clients a fetcher connects with: positioned at a transaction boundary, with the
 * library's own reconnection off (it would resume mid-transaction), server heartbeats on, and the
 * lossless row deserializers installed, which leave the rows of tables the fetcher does not publish
 * unread, and table maps read by a reader that knows MariaDB's column types ({@link
 * TableMapReadingDeserializer}).
 */
final class BinlogClientFactory {

    /** As many table maps as the library keeps by default; MySQL table ids grow over time. */
    private static final int TABLE_MAP_CACHE = 10_000;

    private BinlogClientFactory() {}

    /**
     * @param skippedTables binlog table ids whose rows are not deserialized (see {@link
     *     LosslessRowDeserializers#install})
     */
    static BinaryLogClient create(
            BinlogFetcherConfig config, BinlogPosition position, LongPredicate skippedTables) {
        return create(config, new ResumePosition(position, ""), false, skippedTables);
    }

    /**
     * @param byGtid whether to ask for the transactions after {@code resume}'s GTID (MariaDB's
     *     {@code @slave_connect_state}), on whichever server answers, instead of at its file and
     *     offset
     */
    static BinaryLogClient create(
            BinlogFetcherConfig config,
            ResumePosition resume,
            boolean byGtid,
            LongPredicate skippedTables) {
        BinlogPosition position = resume.position();
        BinaryLogClient client =
                new BinaryLogClient(config.host(), config.port(), config.user(), config.password());
        client.setServerId(config.serverId());
        client.setKeepAlive(false);
        client.setHeartbeatInterval(config.heartbeatInterval().toMillis());
        client.setConnectTimeout(config.connectTimeout().toMillis());
        if (byGtid) {
            client.setGtidSet(resume.gtid());
        } else {
            client.setBinlogFilename(position.file());
            client.setBinlogPosition(position.offset());
        }
        client.setEventDeserializer(deserializer(skippedTables));
        BinlogTls.configure(client, config.tls());
        return client;
    }

    /**
     * A deserializer whose row deserializers share its table-map cache: the library keeps that
     * cache private, so it is built here and handed to both.
     */
    @SuppressWarnings("rawtypes") // the library's constructor takes a map of raw deserializers
    static EventDeserializer deserializer(LongPredicate skippedTables) {
        Map<Long, TableMapEventData> tableMaps =
                new LinkedHashMap<>(1024, 0.75f, true) {
                    private static final long serialVersionUID = 1L;

                    @Override
                    protected boolean removeEldestEntry(Map.Entry<Long, TableMapEventData> eldest) {
                        return size() > TABLE_MAP_CACHE;
                    }
                };
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
        LosslessRowDeserializers.install(deserializer, tableMaps, skippedTables);
        deserializer.setCompatibilityMode(
                EventDeserializer.CompatibilityMode.CHAR_AND_BINARY_AS_BYTE_ARRAY);
        return deserializer;
    }
}
