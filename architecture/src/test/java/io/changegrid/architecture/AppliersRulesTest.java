package io.changegrid.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * What the target appliers may use: the consumer's API, never its internals, relays or fetchers.
 */
@AnalyzeClasses(packages = "io.changegrid", importOptions = ImportOption.DoNotIncludeTests.class)
class AppliersRulesTest {

    @ArchTest
    static final ArchRule appliersNeverDependOnRelaysOrFetchers =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.appliers..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage("io.changegrid.relay..", "io.changegrid.fetchers..")
                    .because(
                            "an applier is a consumer callback: it reaches relays over HTTP through the"
                                    + " consumer, so it runs wherever a consumer runs");

    @ArchTest
    static final ArchRule appliersUseOnlyTheConsumersPublicFace =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.appliers..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "io.changegrid.consumer.dispatch..",
                            "io.changegrid.consumer.pull..",
                            "io.changegrid.consumer.buffer..",
                            "io.changegrid.consumer.schema..")
                    .because(
                            "appliers are callbacks like any user's: the api package, the Consumer and"
                                    + " its settings are their whole contract with the consumer");

    @ArchTest
    static final ArchRule onlyBenchAndDeployUseAppliers =
            noClasses()
                    .that()
                    .resideOutsideOfPackages(
                            "io.changegrid.appliers..",
                            "io.changegrid.bench..",
                            "io.changegrid.deploy..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("io.changegrid.appliers..")
                    .because(
                            "appliers sit on top of the consumer: nothing below them may need them, and"
                                    + " only the local grid (deploy) and bench run them");

    @ArchTest
    static final ArchRule dialectsAndTypeMappingsKnowNoApplyMachinery =
            noClasses()
                    .that()
                    .resideInAnyPackage(
                            "io.changegrid.appliers.dialect..", "io.changegrid.appliers.typemap..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "io.changegrid.appliers.jdbc..",
                            "io.changegrid.appliers.batch..",
                            "io.changegrid.consumer..")
                    .because(
                            "SQL forms and type mappings are pure functions of a schema, testable without"
                                    + " a consumer or a connection");
}
