package io.changegrid.bench.load;

import io.changegrid.bench.harness.OptionProblems;
import io.changegrid.gridkit.load.LoadShape;
import io.changegrid.gridkit.load.OperationMix;
import picocli.CommandLine.Option;

/**
 * The load's shape on the command line. The defaults are the whitepaper's shape (~1,100-byte rows
 * of random data over 3 tables) scaled to a 2-core machine; {@code --records 4800000} is the
 * whitepaper's full size.
 */
public final class WorkloadOptions {

    @Option(
            names = "--records",
            description =
                    "Row changes the load writes (= events); the whitepaper's runs: 4800000."
                            + " Default: ${DEFAULT-VALUE}.")
    long records = 1_200_000;

    @Option(
            names = "--record-size",
            description = "Bytes of values per row, about. Default: ${DEFAULT-VALUE}.")
    int recordSize = 1_100;

    @Option(
            names = "--tables",
            description = "Tables the transactions are spread over. Default: ${DEFAULT-VALUE}.")
    int tables = 3;

    @Option(
            names = "--mix",
            paramLabel = "INSERT,UPDATE,DELETE",
            description =
                    "Percent of inserts, updates, deletes, e.g. 70,20,10 or insert=100."
                            + " Default: 70,20,10.")
    String mix = "70,20,10";

    @Option(
            names = "--workload",
            description =
                    "default: the --mix as given; update-heavy: as many updates as inserts and no"
                            + " deletes (the mix 50,50,0: on average every row inserted is updated"
                            + " once, full before and after images), overriding --mix."
                            + " Default: ${DEFAULT-VALUE}.")
    String workload = "default";

    @Option(
            names = "--transaction-size",
            description = "Row changes per source transaction. Default: ${DEFAULT-VALUE}.")
    int transactionSize = 100;

    @Option(names = "--seed", description = "Seed of the random data. Default: ${DEFAULT-VALUE}.")
    long seed = 42;

    /** The shape, with every problem of these options added to {@code problems}. */
    public LoadShape shape(OptionProblems problems) {
        problems.check(records >= 1, "--records", "must be at least 1", records);
        problems.check(
                recordSize >= LoadShape.MIN_RECORD_SIZE && recordSize <= LoadShape.MAX_RECORD_SIZE,
                "--record-size",
                "must be " + LoadShape.MIN_RECORD_SIZE + ".." + LoadShape.MAX_RECORD_SIZE,
                recordSize);
        problems.check(tables >= 1 && tables <= 1000, "--tables", "must be 1..1000", tables);
        problems.check(
                transactionSize >= 1 && transactionSize <= 100_000,
                "--transaction-size",
                "must be 1..100000",
                transactionSize);
        problems.check(
                workload.equals("default") || workload.equals("update-heavy"),
                "--workload",
                "must be default or update-heavy",
                workload);
        OperationMix parsed = OperationMix.DEFAULT;
        try {
            parsed = OperationMix.parse(workload.equals("update-heavy") ? "50,50,0" : mix);
        } catch (IllegalArgumentException e) {
            problems.add("--mix", e.getMessage());
        }
        return new LoadShape(records, recordSize, tables, parsed, transactionSize, seed);
    }
}
