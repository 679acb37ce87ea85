package io.changegrid.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pins every name relays and their clients must agree on. A change here is a change of the wire
 * format: relays and consumers of different versions stop understanding each other, so it needs a
 * compatibility plan, not just a new expected value.
 */
class WireNamesTest {

    @Test
    void shouldKeepTheHttpPathsWhenTheApiChanges() {
        assertThat(
                        List.of(
                                RelayApi.STREAM,
                                RelayApi.SCHEMAS,
                                RelayApi.STATUS,
                                RelayApi.HEALTH,
                                RelayApi.METRICS,
                                RelayApi.SNAPSHOT_PAUSE,
                                RelayApi.SNAPSHOT_RESUME,
                                RelayApi.TABLE_ID,
                                RelayApi.VERSION))
                .containsExactly(
                        "/v1/stream",
                        "/v1/schemas",
                        "/v1/status",
                        "/v1/health",
                        "/metrics",
                        "/v1/snapshot/pause",
                        "/v1/snapshot/resume",
                        "tableId",
                        "version");
    }

    @Test
    void shouldKeepTheStreamParametersWhenTheApiChanges() {
        assertThat(StreamParameters.ALL)
                .containsExactly(
                        "from",
                        "maxBytes",
                        "timeoutMs",
                        "format",
                        "filter",
                        "tables",
                        "p",
                        "n",
                        "snapshot",
                        "parts");
        assertThat(List.of(StreamParameters.FILTER_POLICIES, StreamParameters.FILTER_PARTITION))
                .containsExactly("policies", "partition");
    }

    @Test
    void shouldKeepTheStreamResponseNamesWhenTheApiChanges() {
        assertThat(
                        List.of(
                                StreamResponse.LAST_SCN,
                                StreamResponse.OLDEST_SCN,
                                StreamResponse.NEWEST_SCN,
                                StreamResponse.SCHEMAS,
                                StreamResponse.SOURCE_ID,
                                StreamResponse.SOURCE_TIME,
                                StreamResponse.OLDEST_SCN_FIELD,
                                StreamResponse.FROM_FIELD))
                .containsExactly(
                        "X-Changegrid-Last-Scn",
                        "X-Changegrid-Oldest-Scn",
                        "X-Changegrid-Newest-Scn",
                        "X-Changegrid-Schemas",
                        "X-Changegrid-Source-Id",
                        "X-Changegrid-Source-Time",
                        "oldestScn",
                        "from");
        assertThat(StreamResponse.TIMELINE).isEqualTo("X-Changegrid-Timeline");
        assertThat(StreamResponse.PARTS).isEqualTo("X-Changegrid-Parts");
        assertThat(StreamResponse.TOO_OLD).isEqualTo(410);
        assertThat(StreamResponse.NOT_FETCHING).isEqualTo(503);
        assertThat(List.of(StreamResponse.FETCH_STATE_FIELD, StreamResponse.FETCH_ERROR_FIELD))
                .containsExactly("fetchState", "fetchError");
    }

    @Test
    void shouldKeepTheSnapshotNamesAndCursorFormWhenTheApiChanges() {
        assertThat(StreamResponse.SNAPSHOT).isEqualTo("X-Changegrid-Snapshot");
        assertThat(List.of(SnapshotCursor.START, SnapshotCursor.COMPLETE))
                .containsExactly("start", "complete");
        assertThat(new SnapshotCursor(77, "shop", "orders", new byte[] {1, 0, 14}).toText())
                .isEqualTo("v1:77:c2hvcA:b3JkZXJz:AQAO");
    }

    @Test
    void shouldKeepTheRegistrationPathAndFieldsWhenEncoding() throws IOException {
        RelayRegistration registration =
                new RelayRegistration(
                        7,
                        "http://10.0.0.5:7070/",
                        List.of("shop.*"),
                        List.of("shop.audit"),
                        1,
                        4,
                        List.of(
                                new RelaySelection(
                                        List.of("shop.*"),
                                        List.of("shop.tmp_*"),
                                        true,
                                        false,
                                        "byKeyHash(partitions=4)")));

        assertThat(RelayRegistration.RELAYS_ROOT).isEqualTo("/changegrid/relays");
        assertThat(registration.sourcePath()).isEqualTo("/changegrid/relays/7");
        assertThat(registration.path()).isEqualTo("/changegrid/relays/7/10.0.0.5_7070");
        String json = new String(registration.encode(), StandardCharsets.UTF_8);
        assertThat(json)
                .isEqualTo(
                        "{\"sourceId\":7,\"endpoint\":\"http://10.0.0.5:7070/\","
                                + "\"include\":[\"shop.*\"],\"exclude\":[\"shop.audit\"],"
                                + "\"partition\":1,\"partitions\":4,\"selects\":[{"
                                + "\"include\":[\"shop.*\"],\"exclude\":[\"shop.tmp_*\"],"
                                + "\"where\":true,\"renames\":false,"
                                + "\"partitioner\":\"byKeyHash(partitions=4)\"}]}");
        assertThat(RelayRegistration.decode(registration.path(), registration.encode()))
                .isEqualTo(registration);
    }
}
