package io.changegrid.events.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.changegrid.events.ChangeEvent;
import io.changegrid.events.Operation;
import io.changegrid.events.schema.SchemaRegistry;
import java.io.IOException;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The part mark of the JSON form: {@code "continued":true} on a part's END_OF_TRANSACTION only. */
class EventJsonWriterTest {

    private static final ChangeEvent END =
            new ChangeEvent(
                    1, 5, 3, 0, "0-1-5", Operation.END_OF_TRANSACTION, null, null, null, null);

    private static String json(ChangeEvent event, boolean continued) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator out = new JsonFactory().createGenerator(text)) {
            EventJsonWriter.write(out, event, continued);
        }
        return text.toString();
    }

    @Test
    void shouldMarkAPartEndAsContinuedWhenTheFrameContinues() throws IOException {
        assertThat(json(END, true))
                .isEqualTo(
                        "{\"source\":1,\"scn\":5,\"index\":3,\"op\":\"END_OF_TRANSACTION\","
                                + "\"txn\":\"0-1-5\",\"commitTime\":\"1970-01-01T00:00:00Z\","
                                + "\"continued\":true}");
    }

    @Test
    void shouldLeaveTheMarkOutWhenTheTransactionEnds() throws IOException {
        assertThat(json(END, false)).doesNotContain(EventJsonWriter.CONTINUED);
    }

    @Test
    void shouldReadAPartEndBackAsItsEndOfTransactionWhenMarked() throws IOException {
        ChangeEvent read = new EventJsonReader(new SchemaRegistry()).read(json(END, true));

        assertThat(read).isEqualTo(END);
    }

    @Test
    void shouldRefuseTheMarkWhenTheEventIsNotAnEndOfTransaction() {
        ChangeEvent heartbeat =
                new ChangeEvent(1, 5, 0, 0, "", Operation.HEARTBEAT, null, null, null, null);

        assertThatThrownBy(() -> json(heartbeat, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("only an END_OF_TRANSACTION ends a part: op=HEARTBEAT, scn=5, index=0");
    }
}
