package io.changegrid.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackages;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The dependency direction every module keeps, checked over the main classes of all modules. Rules
 * on modules that later issues fill allow an empty subject, so they hold from the first class on.
 */
@AnalyzeClasses(packages = "io.changegrid", importOptions = ImportOption.DoNotIncludeTests.class)
class DependencyDirectionTest {

    @ArchTest
    static final ArchRule commonEventsDependOnNothingOfOurs =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.events..")
                    .should()
                    .dependOnClassesThat()
                    .resideOutsideOfPackages(
                            "io.changegrid.events..",
                            "java..",
                            "javax..",
                            "com.fasterxml.jackson.core..")
                    .because(
                            "every other module builds on the event format, and the format must stay "
                                    + "usable from any fetcher, relay, consumer or tool without dragging them in");

    @ArchTest
    static final ArchRule protocolDependsOnlyOnEvents =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.protocol..")
                    .should()
                    .dependOnClassesThat(
                            resideInAPackage("io.changegrid..")
                                    .and(
                                            resideOutsideOfPackages(
                                                    "io.changegrid.protocol..",
                                                    "io.changegrid.events..",
                                                    "io.changegrid.config..")))
                    .because(
                            "relays, consumers, appliers, policies and fetchers all depend on the"
                                    + " contract between relays and their clients; it can depend on"
                                    + " none of them but the event format, and the config module"
                                    + " (a leaf) in which its shared settings (TLS, credentials) are"
                                    + " defined as data");

    @ArchTest
    static final ArchRule consumerNeverDependsOnRelay =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.consumer..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage("io.changegrid.relay..", "io.changegrid.fetchers..")
                    .allowEmptyShould(true)
                    .because(
                            "consumers talk to relays over HTTP only, so either side can be deployed, "
                                    + "upgraded and replaced on its own");

    @ArchTest
    static final ArchRule onlyTheClusterPackageImportsHelix =
            noClasses()
                    .that()
                    .resideOutsideOfPackage("..cluster..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("org.apache.helix..")
                    .because(
                            "Helix is an adapter: the rest of the system sees typed onAssigned/onRevoked "
                                    + "listeners, so the cluster manager can change without touching callbacks");

    @ArchTest
    static final ArchRule consoleReadsTheGridThroughItsContracts =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.console..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "io.changegrid.relay..",
                            "io.changegrid.fetchers..",
                            "io.changegrid.appliers..",
                            "io.changegrid.consumer.group.checkpoint.ZooKeeperCheckpointStore")
                    .because(
                            "the console is a client of the grid: it reads relays through their HTTP"
                                    + " API and ZooKeeper registration (protocol) and groups through"
                                    + " consumer-group's read and control classes, and it never writes a"
                                    + " checkpoint itself (only a partition's owner does, under its epoch)");

    @ArchTest
    static final ArchRule consumerLibraryKnowsNoGroup =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.consumer..")
                    .and()
                    .resideOutsideOfPackage("io.changegrid.consumer.group..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "io.changegrid.consumer.group..",
                            "org.apache.helix..",
                            "org.apache.zookeeper..",
                            "io.changegrid.protocol.zookeeper..",
                            "org.eclipse.jetty.server..",
                            "picocli..")
                    .because(
                            "an application embeds Consumer.builder() without Helix, ZooKeeper, a"
                                    + " server or a command line (ZooKeeper is an optional dependency"
                                    + " of the protocol module, absent from the library's class path);"
                                    + " consumer groups (the consumer-group module) build on the"
                                    + " library, never the other way");

    @ArchTest
    static final ArchRule consumerApiHasNoTransportOrClusterTypes =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.consumer.api..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "org.eclipse.jetty..", "org.apache.helix..", "org.apache.zookeeper..")
                    .allowEmptyShould(true)
                    .because("user callbacks compile against the api package alone");

    @ArchTest
    static final ArchRule policiesDependOnlyOnEvents =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.policy..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "io.changegrid.fetchers..",
                            "io.changegrid.relay..",
                            "io.changegrid.consumer..")
                    .allowEmptyShould(true)
                    .because("the same policy runs in relays and in consumer subscriptions");

    @ArchTest
    static final ArchRule fetchersKnowNothingOfRelayOrConsumer =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.fetchers..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage("io.changegrid.relay..", "io.changegrid.consumer..")
                    .allowEmptyShould(true)
                    .because(
                            "a fetcher only turns a source's log into events; the relay decides what "
                                    + "happens to them");

    @ArchTest
    static final ArchRule relayStartsFetchersThroughTheSpiOnly =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.relay..")
                    .should()
                    .dependOnClassesThat(
                            resideInAPackage("io.changegrid.fetchers..")
                                    .and(not(resideInAPackage("io.changegrid.fetchers"))))
                    .because(
                            "the relay finds its fetcher by source.type through the SPI in "
                                    + "io.changegrid.fetchers; naming one source's classes would tie every relay "
                                    + "to that source and its drivers");

    @ArchTest
    static final ArchRule fetcherSpiNamesNoSource =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.fetchers")
                    .should()
                    .dependOnClassesThat(
                            resideInAPackage("io.changegrid.fetchers..")
                                    .and(not(resideInAPackage("io.changegrid.fetchers"))))
                    .because("the SPI is what every source shares; each source is a module on it");

    @ArchTest
    static final ArchRule packagesAreFreeOfCycles =
            slices().matching("io.changegrid.(**)")
                    .should()
                    .beFreeOfCycles()
                    // One known cycle, left to the appliers' own split: the conflict reader keys
                    // rows with the batch's RowKey.
                    .ignoreDependency(
                            resideInAPackage("io.changegrid.appliers.conflict"),
                            resideInAPackage("io.changegrid.appliers.batch"))
                    .because(
                            "a package is a concern: two that need each other are one concern, or "
                                    + "one of them holds what belongs to a third");

    @ArchTest
    static final ArchRule mainCodeUsesNoTestLibrary =
            noClasses()
                    .that()
                    .resideOutsideOfPackage("io.changegrid.testkit..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAnyPackage(
                            "io.changegrid.testkit..",
                            "org.junit..",
                            "org.assertj..",
                            "org.testcontainers..",
                            "org.awaitility..")
                    .because(
                            "runnable jars (the quickstart, the relay, bench) ship main code and never a"
                                    + " test library; private servers and child JVMs come from"
                                    + " grid-kit, and test-kit only adds JUnit extensions on top");

    @ArchTest
    static final ArchRule gridKitKnowsNoRole =
            noClasses()
                    .that()
                    .resideInAPackage("io.changegrid.gridkit..")
                    .should()
                    .dependOnClassesThat(
                            resideInAPackage("io.changegrid..")
                                    .and(resideOutsideOfPackages("io.changegrid.gridkit..")))
                    .because(
                            "every module's tests use the grid kit, so it sits below them all: it starts"
                                    + " a relay, consumer or applier by the main class it is given");

    @ArchTest
    static final ArchRule onlyToolsStartPrivateServers =
            noClasses()
                    .that()
                    .resideOutsideOfPackages(
                            "io.changegrid.gridkit..",
                            "io.changegrid.testkit..",
                            "io.changegrid.bench..",
                            "io.changegrid.deploy..")
                    .should()
                    .dependOnClassesThat()
                    .resideInAPackage("io.changegrid.gridkit..")
                    .because(
                            "relays, consumers and appliers run against servers they are given; only the"
                                    + " quickstart, the local cluster and bench start a grid in a box");
}
