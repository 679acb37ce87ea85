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
import java.util.function.Function;
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

    /** A client whose row images are copied into one reused buffer; see {@link #create}. */
    static BinaryLogClient create(
            BinlogFetcherConfig config, BinlogPosition position, LongPredicate skippedTables) {
        return create(config, position, tableMaps -> skippedTables, RowBuffers.single());
    }

    /**
     * @param skippedTables binlog table ids whose rows are not deserialized (see {@link
     *     LosslessRowDeserializers#install}), given the client's table-map cache
     * @param buffers where rows events' row images are copied
     */
    static BinaryLogClient create(
            BinlogFetcherConfig config,
            BinlogPosition position,
            Function<Map<Long, TableMapEventData>, LongPredicate> skippedTables,
            RowBuffers buffers) {
        BinaryLogClient client =
                new BinaryLogClient(config.host(), config.port(), config.user(), config.password());
        client.setServerId(config.serverId());
        client.setKeepAlive(false);
        client.setHeartbeatInterval(config.heartbeatInterval().toMillis());
        client.setConnectTimeout(config.connectTimeout().toMillis());
        client.setBinlogFilename(position.file());
        client.setBinlogPosition(position.offset());
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
