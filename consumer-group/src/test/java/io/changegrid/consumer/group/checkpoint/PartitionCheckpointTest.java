package io.changegrid.consumer.group.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class PartitionCheckpointTest {

    @Test
    void shouldKeepTheSnapshotCursorWithTheScnWhenEncodedAndDecoded() throws IOException {
        PartitionCheckpoint checkpoint =
                new PartitionCheckpoint(42, 3, "consumer-1", 1000, "v1:7:c2hvcA:b3JkZXJz:AQ");

        PartitionCheckpoint read = PartitionCheckpoint.decode("/p/0", checkpoint.encode());

        assertThat(read).isEqualTo(checkpoint);
        assertThat(read.claimedBy("consumer-2", 2000).snapshot())
                .isEqualTo("v1:7:c2hvcA:b3JkZXJz:AQ");
    }

    @Test
    void shouldReadNoCursorWhenTheNodeWasWrittenBeforeSnapshots() throws IOException {
        byte[] old =
                "{\"scn\":4294967396,\"epoch\":7,\"owner\":\"consumer-2\",\"updatedMillis\":1}"
                        .getBytes(StandardCharsets.UTF_8);

        PartitionCheckpoint read = PartitionCheckpoint.decode("/p/0", old);

        assertThat(read.scn()).isEqualTo(4294967396L);
        assertThat(read.snapshot()).isNull();
        assertThat(new String(read.encode(), StandardCharsets.UTF_8)).doesNotContain("snapshot");
    }

    @Test
    void shouldKeepTheTimelineWhenEncodedDecodedAndClaimed() throws IOException {
        PartitionCheckpoint checkpoint =
                new PartitionCheckpoint(42, 3, "consumer-1", 1000, null, "mariadb-gtid:domain=0");

        PartitionCheckpoint read = PartitionCheckpoint.decode("/p/0", checkpoint.encode());

        assertThat(read).isEqualTo(checkpoint);
        assertThat(read.claimedBy("consumer-2", 2000).timeline())
                .isEqualTo("mariadb-gtid:domain=0");
        assertThat(
                        PartitionCheckpoint.decode(
                                        "/p/0",
                                        "{\"scn\":1,\"epoch\":1,\"owner\":\"a\"}"
                                                .getBytes(StandardCharsets.UTF_8))
                                .timeline())
                .isNull();
    }
}
