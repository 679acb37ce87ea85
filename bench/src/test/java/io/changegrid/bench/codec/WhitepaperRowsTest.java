package io.changegrid.bench.codec;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.events.Operation;
import io.changegrid.events.frame.EventFrame;
import io.changegrid.events.frame.FrameEncoder;
import io.changegrid.events.schema.SchemaRegistry;
import io.changegrid.events.schema.TableSchema;
import java.util.Random;
import org.junit.jupiter.api.Test;

class WhitepaperRowsTest {

    @Test
    void shouldEncodeToAboutElevenHundredBytesWhenInserted() {
        TableSchema schema = WhitepaperRows.register(new SchemaRegistry(), 1);
        FrameEncoder encoder = new FrameEncoder(4096);
        Random random = new Random(1);
        encoder.beginTransaction(1, 1, 0, "0-1-1");
        for (int i = 0; i < 100; i++) {
            int offset =
                    encoder.appendRowChange(
                            Operation.INSERT, schema, null, WhitepaperRows.row(random, i));
            int length = new EventFrame().wrap(encoder.buffer().byteBuffer(), offset).length();
            assertThat(length).isBetween(1_050, 1_150);
        }
    }
}
