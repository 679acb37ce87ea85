package io.changegrid.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChaosMonkeyTest {

    /** A component that only records whether it runs. */
    private static final class Switch implements ChaosTarget {
        private final String name;
        private boolean alive = true;
        private int starts;

        Switch(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public void start() {
            alive = true;
            starts++;
        }

        @Override
        public void kill() {
            alive = false;
        }

        @Override
        public boolean isAlive() {
            return alive;
        }

        @Override
        public String exitDescription() {
            return "switched off";
        }

        @Override
        public void close() {}
    }

    private static Map<String, List<ChaosTarget>> kinds(Switch... relays) {
        Map<String, List<ChaosTarget>> kinds = new LinkedHashMap<>();
        kinds.put("relay", List.of(relays));
        kinds.put("applier", List.of(new Switch("applier-0")));
        kinds.put("zookeeper", List.of(new Switch("zookeeper")));
        kinds.put("source", List.of(new Switch("source")));
        return kinds;
    }

    @Test
    void shouldKillEveryKindAndLeaveAllRunningWhenARunEnds() throws Exception {
        Map<String, List<ChaosTarget>> kinds = kinds(new Switch("relay-0"), new Switch("relay-1"));
        ChaosMonkey monkey =
                new ChaosMonkey(
                        kinds,
                        7,
                        Duration.ofMillis(5),
                        Duration.ofMillis(10),
                        Duration.ofMillis(1),
                        Duration.ofMillis(2));

        monkey.run(Duration.ofMillis(400));

        assertThat(monkey.kills().values()).allMatch(kills -> kills > 0);
        assertThat(kinds.values().stream().flatMap(List::stream)).allMatch(ChaosTarget::isAlive);
        assertThat(monkey.unexpectedExits()).isZero();
    }

    @Test
    void shouldRestartAndRecordAComponentWhenItDiedUnkilled() throws Exception {
        Switch crashed = new Switch("relay-0");
        crashed.kill();
        ChaosMonkey monkey =
                new ChaosMonkey(
                        kinds(crashed),
                        7,
                        Duration.ofSeconds(10),
                        Duration.ofSeconds(10),
                        Duration.ofMillis(1),
                        Duration.ofMillis(1));

        monkey.reviveAll();

        assertThat(crashed.isAlive()).isTrue();
        assertThat(monkey.unexpectedExits()).isEqualTo(1);
        assertThat(monkey.incidents().get(0).what()).contains("exited on its own");
    }

    @Test
    void shouldReadDurationsWhenGivenInSecondsMinutesOrHours() {
        assertThat(ChaosCommand.parse("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(ChaosCommand.parse("10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(ChaosCommand.parse("1h")).isEqualTo(Duration.ofHours(1));
    }
}
