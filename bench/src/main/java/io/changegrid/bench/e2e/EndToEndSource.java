package io.changegrid.bench.e2e;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.bench.harness.BenchSource;
import io.changegrid.bench.harness.SourceOptions;
import io.changegrid.bench.load.BenchTables;
import io.changegrid.bench.load.LoadedRange;
import io.changegrid.bench.relay.BinlogRelaySource;
import io.changegrid.bench.relay.RelaySource;
import io.changegrid.bench.stage1.PostgresLoad;
import io.changegrid.bench.stage1.PostgresRelaySource;
import io.changegrid.gridkit.load.LoadShape;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * The source of an end-to-end run with its load written: a MySQL/MariaDB binlog range ({@link
 * Binlog}) or a private PostgreSQL read by logical decoding ({@link Postgres}). What the run needs
 * of it: the tables (for the split), the count, where relays and consumers know they are at the
 * end, and a {@link RelaySource} for each run's relays.
 */
sealed interface EndToEndSource extends AutoCloseable {

    /** Writes the load into the source {@code type} names (mysql or postgresql). */
    static EndToEndSource write(
            String type, SourceOptions options, LoadShape shape, Set<Integer> tableSplits)
            throws Exception {
        if (type.equals("postgresql")) {
            return new Postgres(PostgresLoad.write(shape, tableSplits));
        }
        BenchSource source = BenchSource.open(options, shape.dataBytes(), shape.frameBytes());
        try {
            return new Binlog(source, LoadedRange.write(source, shape, tableSplits));
        } catch (Exception | Error e) {
            source.close();
            throw e;
        }
    }

    @Override
    void close() throws java.sql.SQLException;

    /** The database (MySQL) or schema (PostgreSQL) consumers and relays name. */
    String database();

    BenchTables tables();

    /** The row changes the load wrote. */
    long events();

    /** The SCN a relay's status position reaches once it has read the whole load. */
    long relayEndScn();

    /** The checkpoint a consumer reaches once it has received the whole load. */
    long consumerEndScn();

    /** The relays of one run; closed after they have stopped. */
    RelaySource relays(int count, String run) throws Exception;

    /** The private server's CPU seconds so far; empty when not measured. */
    OptionalDouble cpuSeconds();

    /** The private server sharing the machine ("MariaDB"), or null for a given one. */
    String privateServer();

    /** Puts the source and the load's shape and rate into a result line. */
    void describe(ObjectNode line, LoadShape shape);

    /** A binlog range of a MySQL/MariaDB, private or given. */
    record Binlog(BenchSource source, LoadedRange range) implements EndToEndSource {

        @Override
        public String database() {
            return source.database();
        }

        @Override
        public BenchTables tables() {
            return range.tables();
        }

        @Override
        public long events() {
            return range.load().events();
        }

        @Override
        public long relayEndScn() {
            return range.to().scn();
        }

        @Override
        public long consumerEndScn() {
            return range.to().scn() - 1;
        }

        @Override
        public RelaySource relays(int count, String run) {
            return new BinlogRelaySource(source, range.from());
        }

        @Override
        public OptionalDouble cpuSeconds() {
            return source.cpuSeconds();
        }

        @Override
        public String privateServer() {
            return source.isPrivate() ? "MariaDB" : null;
        }

        @Override
        public void describe(ObjectNode line, LoadShape shape) {
            range.describe(line, shape, source.describe());
        }

        @Override
        public void close() throws java.sql.SQLException {
            source.close();
        }
    }

    /**
     * A private PostgreSQL's WAL, each relay on its own copy of the slot made before the load
     * (replica relays of one source, or relays splitting it by table).
     */
    record Postgres(PostgresLoad load) implements EndToEndSource {

        @Override
        public String database() {
            return PostgresLoad.SCHEMA;
        }

        @Override
        public BenchTables tables() {
            return load.tables();
        }

        @Override
        public long events() {
            return load.load().events();
        }

        @Override
        public long relayEndScn() {
            return PostgresRelaySource.lsn(load.to());
        }

        /**
         * Once its position is at the end of the load's WAL, a relay's heartbeats carry SCN {@code
         * position - 2} (above every transaction's, the fetcher's rule), so {@code end - 2}.
         */
        @Override
        public long consumerEndScn() {
            return relayEndScn() - 2;
        }

        @Override
        public RelaySource relays(int count, String run) throws Exception {
            return PostgresRelaySource.open(load, count, run);
        }

        /**
         * Not measured: the decoding runs in one WAL sender per relay, each ending with its relay
         * (stage 1 reports one relay's).
         */
        @Override
        public OptionalDouble cpuSeconds() {
            return OptionalDouble.empty();
        }

        @Override
        public String privateServer() {
            return "PostgreSQL";
        }

        @Override
        public void describe(ObjectNode line, LoadShape shape) {
            line.put("source", "private PostgreSQL, pgoutput");
            line.put("sourceType", "postgresql");
            line.put("records", shape.records());
            line.put("recordSize", shape.recordSize());
            line.put("tables", shape.tables());
            line.put("mix", shape.mix().toString());
            line.put("transactionSize", shape.transactionSize());
            line.put("seed", shape.seed());
            line.put("loadEventsPerSec", Math.round(load.load().eventsPerSecond()));
            line.put("generatorEventsPerSec", Math.round(load.load().generatorEventsPerSecond()));
            line.put("walFrom", load.from());
            line.put("walTo", load.to());
        }

        @Override
        public void close() {
            load.close();
        }
    }
}
