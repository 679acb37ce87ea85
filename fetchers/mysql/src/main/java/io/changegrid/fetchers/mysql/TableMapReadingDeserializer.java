package io.changegrid.fetchers.mysql;

import com.github.shyiko.mysql.binlog.event.Event;
import com.github.shyiko.mysql.binlog.event.EventData;
import com.github.shyiko.mysql.binlog.event.EventHeader;
import com.github.shyiko.mysql.binlog.event.EventType;
import com.github.shyiko.mysql.binlog.event.FormatDescriptionEventData;
import com.github.shyiko.mysql.binlog.event.TableMapEventData;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDataDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventDeserializer;
import com.github.shyiko.mysql.binlog.event.deserialization.EventHeaderDeserializer;
import com.github.shyiko.mysql.binlog.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;

/**
 * The library's event deserializer with table maps read by {@link MariaDbTableMapDeserializer}.
 *
 * <p>Why a subclass: the library reads every table map with its own deserializer, also when another
 * is registered for TABLE_MAP (it then runs both, its own first), so registering ours would not
 * keep its NullPointerException on MariaDB's column types away. The table map is read here as the
 * library would: within the event's body, the checksum after it skipped, the result put into the
 * table-map cache the row deserializers share.
 *
 * <p>Threading: used on the binlog client's thread only, as the library's is.
 */
final class TableMapReadingDeserializer extends EventDeserializer {

    private final MariaDbTableMapDeserializer tableMapReader = new MariaDbTableMapDeserializer();
    private final Map<Long, TableMapEventData> tableMaps;

    /**
     * Bytes of checksum after each event's body, as the FORMAT_DESCRIPTION event the server sends
     * first on every connection says.
     */
    private int checksumLength;

    @SuppressWarnings("rawtypes") // the library's constructor takes a map of raw deserializers
    TableMapReadingDeserializer(
            EventHeaderDeserializer headers,
            EventDataDeserializer fallback,
            Map<EventType, EventDataDeserializer> byType,
            Map<Long, TableMapEventData> tableMaps) {
        super(headers, fallback, byType, tableMaps);
        this.tableMaps = tableMaps;
    }

    @Override
    public Event nextEvent(ByteArrayInputStream in) throws IOException {
        Event event = super.nextEvent(in);
        if (event != null && event.getData() instanceof FormatDescriptionEventData format) {
            checksumLength = format.getChecksumType().getLength();
        }
        return event;
    }

    @Override
    public EventData deserializeTableMapEventData(ByteArrayInputStream in, EventHeader header)
            throws IOException {
        in.enterBlock((int) header.getDataLength() - checksumLength);
        TableMapEventData data = tableMapReader.deserialize(in);
        in.skipToTheEndOfTheBlock();
        in.skip(checksumLength);
        tableMaps.put(data.getTableId(), data);
        return data;
    }
}
