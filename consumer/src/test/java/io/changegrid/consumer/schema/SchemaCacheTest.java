package io.changegrid.consumer.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.consumer.SampleStream;
import io.changegrid.events.schema.TableSchema;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchemaCacheTest {

    private final List<String> fetches = new ArrayList<>();

    private TableSchema fetch(int tableId, int version) throws IOException {
        fetches.add(tableId + "/" + version);
        if (tableId != SampleStream.ORDERS.tableId()) {
            throw new IOException("unknown schema: tableId=" + tableId);
        }
        return SampleStream.ORDERS;
    }

    @Test
    void shouldFetchEachSchemaOnceWhenManyFramesNameIt() throws IOException {
        SchemaCache cache = new SchemaCache(this::fetch);
        byte[] body =
                new SampleStream().order(100, 1).heartbeat(150).order(200, 2).order(300, 3).take();
        ByteBuffer buffer = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);

        assertThat(cache.ensureSchemas(buffer, 0, body.length)).isEqualTo(1);
        assertThat(cache.ensureSchemas(buffer, 0, body.length)).isZero();

        assertThat(fetches).containsExactly("1/1");
        assertThat(cache.registry().schema(1, 1)).isEqualTo(SampleStream.ORDERS);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void shouldRefuseASchemaThatIsNotTheOneAskedFor() {
        SchemaCache cache = new SchemaCache((tableId, version) -> SampleStream.ORDERS);
        byte[] body = new SampleStream().order(100, 1).take();
        body[36] = 9; // table id 9 (checksum not checked here: the puller checked frames before)
        ByteBuffer buffer = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);

        assertThatThrownBy(() -> cache.ensureSchemas(buffer, 0, body.length))
                .isInstanceOf(IOException.class)
                .hasMessage(
                        "schema source answered another schema: asked tableId=9, version=1, got tableId=1, version=1");
    }

    @Test
    void shouldKeepManyKeysWhenTheSetGrows() {
        SchemaKeys keys = new SchemaKeys();
        for (int table = 1; table <= 1000; table++) {
            keys.add(SchemaKeys.key(table, table % 7 + 1));
        }

        assertThat(keys.size()).isEqualTo(1000);
        for (int table = 1; table <= 1000; table++) {
            assertThat(keys.contains(SchemaKeys.key(table, table % 7 + 1))).isTrue();
            assertThat(keys.contains(SchemaKeys.key(table, table % 7 + 2))).isFalse();
        }
    }
}
