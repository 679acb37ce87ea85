package io.changegrid.bench.harness;

import picocli.CommandLine.Option;

/** Where the load goes: a private MariaDB the harness starts (default) or a given server. */
public final class SourceOptions {

    @Option(
            names = "--source",
            paramLabel = "HOST:PORT",
            description =
                    "A MySQL/MariaDB (binlog_format=ROW) to load instead of a private MariaDB."
                            + " The harness creates --database there, refuses if it exists, and"
                            + " drops it at the end.")
    String source;

    @Option(
            names = "--source-user",
            description =
                    "User for --source, with REPLICATION SLAVE, REPLICATION CLIENT, SELECT, RELOAD"
                            + " and the right to create --database. Default: ${DEFAULT-VALUE}.")
    String user = "root";

    @Option(
            names = "--source-password",
            description =
                    "Password of --source-user, best as a $${env:NAME} or $${file:/path} reference"
                            + " (a literal is visible in ps). Default: environment variable"
                            + " CHANGEGRID_SOURCE_PASSWORD, else empty.",
            defaultValue = "${env:CHANGEGRID_SOURCE_PASSWORD:-}")
    String password = "";

    @Option(
            names = "--database",
            description =
                    "Database the load writes (default: bench on the private MariaDB,"
                            + " changegrid_bench on --source).")
    String database;

    @Option(
            names = "--binlog-in-memory",
            negatable = true,
            description =
                    "Write the private MariaDB's binlog to /dev/shm, so relays read it from memory"
                            + " (default: when it is at most a quarter of the RAM; this VM keeps"
                            + " little file data cached, and a binlog on disk measures the disk).")
    Boolean binlogInMemory;

    /** Whether a server was given, rather than a private one to start. */
    public boolean isGiven() {
        return source != null;
    }

    /**
     * The options given that choose or shape a MySQL/MariaDB source, for a run on another source
     * type to refuse by name.
     */
    public java.util.List<String> givenOptions() {
        java.util.List<String> given = new java.util.ArrayList<>();
        if (source != null) {
            given.add("--source");
        }
        if (database != null) {
            given.add("--database");
        }
        if (binlogInMemory != null) {
            given.add("--binlog-in-memory");
        }
        return given;
    }

    /** The database the load writes. */
    public String database() {
        return database != null ? database : isGiven() ? "changegrid_bench" : "bench";
    }
}
