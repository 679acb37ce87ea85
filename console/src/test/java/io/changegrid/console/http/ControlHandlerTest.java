package io.changegrid.console.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.console.control.ControlOperation;
import io.changegrid.console.control.ControlRejected;
import org.eclipse.jetty.util.Fields;
import org.junit.jupiter.api.Test;

class ControlHandlerTest {

    @Test
    void shouldNameTheOperationWhenThePathIsOneOfTheApi() throws ControlRejected {
        Fields scn = new Fields();
        scn.add("scn", "4294967396");

        assertThat(ControlHandler.parse("/api/groups/orders/pause", new Fields()))
                .isEqualTo(new ControlOperation.PauseGroup("orders", true));
        assertThat(ControlHandler.parse("/api/groups/orders/resume", new Fields()))
                .isEqualTo(new ControlOperation.PauseGroup("orders", false));
        assertThat(ControlHandler.parse("/api/groups/orders/partitions/3/pause", new Fields()))
                .isEqualTo(new ControlOperation.PausePartition("orders", 3, true));
        assertThat(ControlHandler.parse("/api/groups/orders/partitions/3/resume", new Fields()))
                .isEqualTo(new ControlOperation.PausePartition("orders", 3, false));
        assertThat(ControlHandler.parse("/api/groups/orders/partitions/3/reset", scn))
                .isEqualTo(new ControlOperation.ResetCheckpoint("orders", 3, 4294967396L));
        assertThat(ControlHandler.parse("/api/groups/orders/partitions/3/reseed", new Fields()))
                .isEqualTo(new ControlOperation.Reseed("orders", 3));
    }

    @Test
    void shouldRejectWithTheProblemNamedWhenThePathOrParametersAreWrong() {
        assertRejected(
                "/api/groups/orders/stop", new Fields(), 404, "path=/api/groups/orders/stop");
        assertRejected("/api/groups//pause", new Fields(), 400, "no group");
        assertRejected("/api/groups/orders/partitions/x/pause", new Fields(), 400, "partition=x");
        assertRejected("/api/groups/orders/partitions/-1/pause", new Fields(), 400, "partition=-1");
        assertRejected("/api/groups/orders/partitions/1/reset", new Fields(), 400, "scn parameter");
        Fields scn = new Fields();
        scn.add("scn", "soon");
        assertRejected("/api/groups/orders/partitions/1/reset", scn, 400, "scn=soon");
    }

    private static void assertRejected(String path, Fields query, int status, String message) {
        assertThatThrownBy(() -> ControlHandler.parse(path, query))
                .isInstanceOfSatisfying(
                        ControlRejected.class, e -> assertThat(e.httpStatus()).isEqualTo(status))
                .hasMessageContaining(message);
    }
}
