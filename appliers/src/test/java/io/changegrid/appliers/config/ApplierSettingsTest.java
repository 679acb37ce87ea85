package io.changegrid.appliers.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.changegrid.appliers.batch.LaneRouter;
import io.changegrid.appliers.jdbc.ApplierOptions;
import io.changegrid.appliers.jdbc.ApplyMode;
import io.changegrid.appliers.schema.SchemaChangeMode;
import io.changegrid.config.ConfigException;
import io.changegrid.policy.conflict.ConflictResolver;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ApplierSettingsTest {

    @Test
    void shouldReportEveryBadSettingWithItsPathWhenTheConfigurationIsInvalid() {
        assertThatThrownBy(
                        () ->
                                ApplierSettings.SCHEMA.load(
                                        Map.of(),
                                        Map.of(
                                                "relays", "http://127.0.0.1:7070",
                                                "target.url", "postgres://nope",
                                                "apply.lanes", "0",
                                                "apply.partitioner", "random",
                                                "apply.schemaChanges", "ignore")))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("path=target.url")
                .hasMessageContaining("path=apply.lanes")
                .hasMessageContaining("path=apply.partitioner")
                .hasMessageContaining("path=apply.schemaChanges");
    }

    @Test
    void shouldStopOnRefusedRowsUnlessParkingIsAskedFor() {
        Map<String, String> base =
                Map.of(
                        "relays", "http://127.0.0.1:7070",
                        "target.url", "jdbc:mariadb://127.0.0.1:3306/");
        assertThat(ApplierSettings.options(ApplierSettings.SCHEMA.load(Map.of(), base)))
                .extracting(ApplierOptions::parkRefusedTables)
                .isEqualTo(false);
        Map<String, String> park = new java.util.HashMap<>(base);
        park.put("apply.refusedRows", "park");
        assertThat(ApplierSettings.options(ApplierSettings.SCHEMA.load(Map.of(), park)))
                .extracting(ApplierOptions::parkRefusedTables)
                .isEqualTo(true);
        park.put("apply.refusedRows", "skip");
        assertThatThrownBy(() -> ApplierSettings.SCHEMA.load(Map.of(), park))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("path=apply.refusedRows");
    }

    @Test
    void shouldBuildApplierOptionsWhenSettingsAreValid() {
        ApplierOptions options =
                ApplierSettings.options(
                        ApplierSettings.SCHEMA.load(
                                Map.of(),
                                Map.of(
                                        "relays", "http://127.0.0.1:7070",
                                        "subscription.partitions", "4",
                                        "subscription.partition", "2",
                                        "target.url", "jdbc:postgresql://127.0.0.1:5432/replica",
                                        "apply.lanes", "4",
                                        "apply.partitioner", "column:customer",
                                        "apply.schemaChanges", "refuse",
                                        "apply.mode", "staging")));
        assertThat(options.mode()).isEqualTo(ApplyMode.STAGING);
        assertThat(options.partition()).isEqualTo(2);
        assertThat(options.lanes()).isEqualTo(4);
        assertThat(options.router()).isEqualTo(new LaneRouter.ByColumn("customer"));
        assertThat(options.schemaChanges()).isEqualTo(SchemaChangeMode.REFUSE);
        assertThat(options.checkpointNamespace()).isEqualTo("public");
        assertThat(options.user()).isNull();
    }

    @Test
    void shouldRefuseTheStagingPathWhenTheTargetIsMariaDb() {
        assertThatThrownBy(
                        () ->
                                ApplierSettings.options(
                                        ApplierSettings.SCHEMA.load(
                                                Map.of(),
                                                Map.of(
                                                        "relays", "http://127.0.0.1:7070",
                                                        "target.url", "jdbc:mariadb://127.0.0.1/",
                                                        "apply.mode", "staging"))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("name=mode, value=staging")
                .hasMessageContaining("PostgreSQL targets only");
    }

    private static ApplierOptions conflictOptions(String... more) {
        Map<String, String> settings = new java.util.HashMap<>();
        settings.put("relays", "http://127.0.0.1:7070");
        settings.put("target.url", "jdbc:postgresql://127.0.0.1:5432/replica");
        for (int i = 0; i < more.length; i += 2) {
            settings.put(more[i], more[i + 1]);
        }
        return ApplierSettings.options(ApplierSettings.SCHEMA.load(Map.of(), settings));
    }

    @Test
    void shouldGiveTheApplierTheConflictRuleWhenApplyConflictNamesOne() {
        assertThat(conflictOptions().conflicts()).isNull();
        assertThat(conflictOptions("apply.conflict", "last-writer-wins-by-scn").conflicts())
                .isEqualTo(new ConflictResolver.LastWriterWinsByScn());
        assertThat(
                        conflictOptions(
                                        "apply.conflict", "SOURCE_PRIORITY",
                                        "apply.conflictSources", "2,1")
                                .conflicts())
                .isEqualTo(new ConflictResolver.SourcePriority(List.of(2, 1)));
    }

    @Test
    void shouldRefuseAConflictRuleWhenItIsUnknownOrLacksItsSources() {
        assertThatThrownBy(() -> conflictOptions("apply.conflict", "newest-wins"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("path=apply.conflict");
        assertThatThrownBy(() -> conflictOptions("apply.conflict", "source-priority"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("path=apply.conflictSources");
    }
}
