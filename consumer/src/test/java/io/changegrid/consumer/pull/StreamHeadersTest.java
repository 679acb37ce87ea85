package io.changegrid.consumer.pull;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.protocol.StreamResponse;
import org.eclipse.jetty.http.HttpFields;
import org.junit.jupiter.api.Test;

class StreamHeadersTest {

    private static HttpFields.Mutable headers() {
        return HttpFields.build()
                .put(StreamResponse.LAST_SCN, "42")
                .put(StreamResponse.NEWEST_SCN, "50")
                .put(StreamResponse.SOURCE_ID, "3")
                .put(StreamResponse.SCHEMAS, "abc");
    }

    @Test
    void shouldReadTheSourceTimeWhenTheRelaySendsIt() {
        StreamHeaders read =
                StreamHeaders.read(headers().put(StreamResponse.SOURCE_TIME, "1764150000123"));

        assertThat(read).isEqualTo(new StreamHeaders(42, 50, 3, "abc", 1_764_150_000_123L));
    }

    @Test
    void shouldHaveNoSourceTimeWhenAnOlderRelayDoesNotSendIt() {
        assertThat(StreamHeaders.read(headers()).sourceTimeMillis())
                .isEqualTo(StreamHeaders.NO_SOURCE_TIME);
    }

    @Test
    void shouldNameTheHeaderWhenTheSourceTimeIsNotANumber() {
        assertThatThrownBy(
                        () -> StreamHeaders.read(headers().put(StreamResponse.SOURCE_TIME, "soon")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name=X-Changegrid-Source-Time, value=soon");
    }
}
