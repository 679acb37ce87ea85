package io.changegrid.bench.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.bench.harness.Partitioning;
import io.changegrid.policy.config.PolicyConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RelayPlanTest {

    private static final Path CHAIN = Path.of("policies/chain.yaml");

    @Test
    void shouldRunWithoutPoliciesWhenOneRelayPassesEverythingThrough() {
        assertThat(plan(1, List.of()).relayPolicies("bench")).isEmpty();
    }

    @Test
    void shouldSplitEveryTableWhenSeveralRelaysHaveNoPolicies() {
        List<Object> policies = plan(3, List.of()).relayPolicies("bench");

        assertThat(policies).hasSize(1);
        Map<?, ?> split = (Map<?, ?>) policies.get(0);
        assertThat(split.get("include")).isEqualTo(List.of("bench.*"));
        assertThat(split.get("partition")).isEqualTo(Map.of("byTable", Map.of("partitions", 3)));
        assertThat(PolicyConfig.parse(policies).policies().get(0).partitioner().partitions())
                .isEqualTo(3);
    }

    @Test
    void shouldGiveTheChainThePartitionerWhenSeveralRelaysRunIt() {
        OptionProblems problems = new OptionProblems();
        List<?> chain = PolicyFile.read(CHAIN, "--policies", problems);
        problems.throwIfAny();

        List<Object> policies = plan(2, chain).relayPolicies("bench");

        var parsed = PolicyConfig.parse(policies).policies().get(0);
        assertThat(parsed.partitioner().partitions()).isEqualTo(2);
        assertThat(parsed.where()).isNotNull();
    }

    @Test
    void shouldParseTheShippedChainWhenReadAsTheRelayWould() {
        OptionProblems problems = new OptionProblems();
        List<?> chain = PolicyFile.read(CHAIN, "--policies", problems);
        problems.throwIfAny();

        assertThat(PolicyConfig.parse(chain).policies()).hasSize(1);
    }

    @Test
    void shouldNameTheOptionAndFileWhenThePolicyFileIsMissing() {
        OptionProblems problems = new OptionProblems();
        PolicyFile.read(Path.of("no/such.yaml"), "--policies", problems);

        org.assertj.core.api.Assertions.assertThatThrownBy(problems::throwIfAny)
                .hasMessageContaining("--policies: no readable file: value=no/such.yaml");
    }

    private static RelayPlan plan(int relays, List<?> policies) {
        return new RelayPlan(
                relays,
                Partitioning.TABLE,
                policies,
                "512m",
                1L << 28,
                "direct",
                List.of(),
                BenchTls.NONE,
                List.of());
    }
}
