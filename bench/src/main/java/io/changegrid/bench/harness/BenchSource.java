package io.changegrid.bench.harness;

import io.changegrid.fetchers.mysql.BinlogPosition;
import io.changegrid.gridkit.process.JavaProcess;
import io.changegrid.gridkit.server.MariaDbConfig;
import io.changegrid.gridkit.server.MariaDbServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Properties;

/**
 * The source database of a run: a private MariaDB started for it (tuned to take the load fast; the
 * load is not what is measured), or a MySQL/MariaDB given with {@code --source}. Owns the run's
 * database: creates it, and on {@link #close()} drops it (given server) or stops the server
 * (private).
 */
public final class BenchSource implements AutoCloseable {

    /** What a private server's buffer pool keeps after the load: its tables' pages are not read. */
    private static final long ROW_CACHE_AFTER_LOAD = 256L << 20;

    private final MariaDbServer server;
    private final String host;
    private final int port;
    private final String user;
    private final String password;
    private final String rootUser;
    private final String rootPassword;
    private final String database;
    private Path binlogDirectory;

    private BenchSource(
            MariaDbServer server,
            String host,
            int port,
            String user,
            String password,
            String rootUser,
            String rootPassword,
            String database) {
        this.server = server;
        this.host = host;
        this.port = port;
        this.user = user;
        this.password = password;
        this.rootUser = rootUser;
        this.rootPassword = rootPassword;
        this.database = database;
    }

    /**
     * Starts a private MariaDB sized for {@code dataBytes} of rows and {@code binlogBytes} of
     * binlog, or connects to the given one, and creates the run's database.
     *
     * @throws IllegalStateException if the database exists on a given server
     */
    public static BenchSource open(SourceOptions options, long dataBytes, long binlogBytes)
            throws SQLException, IOException {
        BenchSource source;
        if (options.isGiven()) {
            int colon = options.source.lastIndexOf(':');
            if (colon < 1) {
                throw new IllegalArgumentException(
                        "--source must be host:port: value=" + options.source);
            }
            String password =
                    io.changegrid.config.ValueReference.resolveOption(
                            "--source-password", options.password);
            source =
                    new BenchSource(
                            null,
                            options.source.substring(0, colon),
                            Integer.parseInt(options.source.substring(colon + 1)),
                            options.user,
                            password,
                            options.user,
                            password,
                            options.database());
        } else {
            Path binlog = binlogDirectory(options, binlogBytes);
            MariaDbServer server;
            try {
                server = MariaDbServer.start(privateConfig(dataBytes, binlog));
            } catch (RuntimeException e) {
                if (binlog != null) {
                    BinlogDirectory.delete(binlog);
                }
                throw e;
            }
            source =
                    new BenchSource(
                            server,
                            server.host(),
                            server.port(),
                            server.user(),
                            server.password(),
                            server.rootUser(),
                            server.rootPassword(),
                            options.database());
            source.binlogDirectory = binlog;
            System.err.println(
                    "source: private MariaDB, binlog "
                            + (binlog != null
                                    ? "in memory: " + binlog
                                    : "on disk: " + server.dataDir()));
        }
        try {
            source.createDatabase(options.isGiven());
        } catch (SQLException | RuntimeException e) {
            source.close();
            throw e;
        }
        return source;
    }

    /**
     * A private MariaDB that loads fast: a buffer pool that holds the rows (so updates and deletes
     * do not read from disk), no flush per commit, binlog ROW with full images (the test kit's
     * defaults).
     */
    /** /dev/shm when the binlog should and can be in memory, else {@code null} (the data dir). */
    private static Path binlogDirectory(SourceOptions options, long binlogBytes)
            throws IOException {
        Path shm = Path.of("/dev/shm");
        boolean fits =
                Files.isDirectory(shm)
                        && binlogBytes <= totalMemory() / 4
                        && Files.getFileStore(shm).getUsableSpace() > 2 * binlogBytes;
        boolean wanted = options.binlogInMemory != null ? options.binlogInMemory : fits;
        if (!wanted) {
            return null;
        }
        if (!Files.isDirectory(shm)) {
            throw new IllegalArgumentException("--binlog-in-memory: no /dev/shm on this machine");
        }
        return BinlogDirectory.create(shm);
    }

    /** The machine's RAM in bytes (the JVM's view of the OS). */
    private static long totalMemory() {
        return ((com.sun.management.OperatingSystemMXBean)
                        java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
    }

    static MariaDbConfig privateConfig(long dataBytes, Path binlog) {
        long pool = Math.min(8L << 30, Math.max(1L << 30, dataBytes * 3 / 2));
        pool = (pool + (128L << 20) - 1) / (128L << 20) * (128L << 20);
        MariaDbConfig.Builder config = MariaDbConfig.builder();
        if (binlog != null) {
            config.extraOption("--log-bin=" + binlog.resolve("binlog"));
        }
        return config.extraOption("--innodb-buffer-pool-size=" + pool)
                .extraOption("--innodb-log-file-size=1G")
                .extraOption("--innodb-flush-log-at-trx-commit=0")
                .extraOption("--sync-binlog=0")
                .extraOption("--max-binlog-size=1G")
                .extraOption("--max-allowed-packet=64M")
                .build();
    }

    private void createDatabase(boolean refuseExisting) throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            if (refuseExisting) {
                try (ResultSet rows =
                        statement.executeQuery(
                                "SELECT 1 FROM information_schema.schemata WHERE schema_name = '"
                                        + database
                                        + "'")) {
                    if (rows.next()) {
                        throw new IllegalStateException(
                                "database exists on the given source; the harness only writes a"
                                        + " database it creates: database="
                                        + database
                                        + " (drop it or choose --database)");
                    }
                }
            }
            statement.execute("CREATE DATABASE `" + database + "`");
        }
    }

    /** A new connection with the rights to load, without a default database. */
    public Connection connect() throws SQLException {
        Properties credentials = new Properties();
        credentials.setProperty("user", rootUser);
        credentials.setProperty("password", rootPassword);
        return DriverManager.getConnection(
                "jdbc:mariadb://" + host + ":" + port + "/", credentials);
    }

    /** The binlog's end now: where a load starts or ended. */
    public BinlogPosition masterPosition() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW MASTER STATUS")) {
            if (!rows.next()) {
                throw new IllegalStateException(
                        "source has no binlog (SHOW MASTER STATUS is empty): source="
                                + host
                                + ":"
                                + port);
            }
            return new BinlogPosition(rows.getString("File"), rows.getLong("Position"));
        }
    }

    /**
     * Lets a private server finish writing the load before anything is measured: its dirty pages
     * flushed and the binlog on disk, so that its background writes do not share the cores and the
     * disk with the first measured run (on the whitepaper's machines MySQL had its own VM). A given
     * server is left alone.
     */
    public void settle() throws SQLException, InterruptedException, java.io.IOException {
        if (server == null) {
            return;
        }
        long start = System.nanoTime();
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            // As fast as the disk takes it: the default capacity (200 pages/s) takes minutes.
            statement.execute("SET GLOBAL innodb_io_capacity_max = 100000");
            statement.execute("SET GLOBAL innodb_io_capacity = 100000");
            statement.execute("SET GLOBAL innodb_max_dirty_pages_pct_lwm = 0.001");
            statement.execute("SET GLOBAL innodb_max_dirty_pages_pct = 0");
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(5);
            while (dirtyPages(statement) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(200); // InnoDB flushes in the background; nothing to wait on
            }
        }
        Process sync = new ProcessBuilder("sync").inheritIO().start();
        sync.waitFor();
        System.err.printf(
                java.util.Locale.ROOT,
                "source settled (dirty pages flushed, binlog synced) in %.1f s%n",
                (System.nanoTime() - start) / 1e9);
    }

    /**
     * Puts a private server's binlog in the page cache for the readers that follow the load, as it
     * would be on a source whose readers keep up. The buffer pool was sized to hold the rows while
     * they were written (up to 8 GiB) and the readers read only the binlog (11 to 14 GB at 4.8M
     * rows), so the pool shrinks to {@value #ROW_CACHE_AFTER_LOAD} bytes (MariaDB returns the
     * memory) and the binlog is read once, so that the first measured reader finds it cached like
     * the later ones. Each reader's line says what it still read from disk ({@link DiskReads}). A
     * given server is left alone.
     */
    public void cacheBinlog() throws SQLException {
        if (server == null) {
            return;
        }
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            long before = bufferPoolBytes(statement);
            if (before > ROW_CACHE_AFTER_LOAD) {
                statement.execute("SET GLOBAL innodb_buffer_pool_size = " + ROW_CACHE_AFTER_LOAD);
                System.err.printf(
                        java.util.Locale.ROOT,
                        "source: buffer pool shrunk from %,d to %,d MiB after the load, for the"
                                + " binlog's pages%n",
                        before >> 20,
                        bufferPoolBytes(statement) >> 20);
            }
            warmBinlog(statement);
        }
    }

    /**
     * Reads the private server's binlog files once, so that the first measured reader finds them in
     * the page cache as the later ones do: the load wrote them beside a full buffer pool, which
     * left part of a large binlog on disk only.
     */
    private static void warmBinlog(Statement statement) throws SQLException {
        Path base;
        try (ResultSet rows = statement.executeQuery("SELECT @@log_bin_basename")) {
            rows.next();
            base = Path.of(rows.getString(1));
        }
        long start = System.nanoTime();
        OptionalLong diskBefore = DiskReads.bytes();
        long bytes = 0;
        ByteBuffer chunk = ByteBuffer.allocateDirect(1 << 20);
        for (BinlogFile binlog : binlogFiles(statement)) {
            Path file = base.resolveSibling(binlog.name());
            try (FileChannel channel = FileChannel.open(file)) {
                int n;
                while ((n = channel.read(chunk.clear())) >= 0) {
                    bytes += n;
                }
            } catch (IOException e) {
                throw new SQLException("binlog file not readable: file=" + file, e);
            }
        }
        System.err.printf(
                java.util.Locale.ROOT,
                "source: %,d binlog bytes read once into the page cache in %.1f s, %,.0f MB of"
                        + " them from disk%n",
                bytes,
                (System.nanoTime() - start) / 1e9,
                Math.max(0, DiskReads.megabytesBetween(diskBefore, DiskReads.bytes())));
    }

    /**
     * A binlog file as the source lists it.
     *
     * @param name the file's name, without directory
     * @param size its length in bytes
     */
    public record BinlogFile(String name, long size) {}

    /** The source's binlog files, oldest first ({@code SHOW BINARY LOGS}). */
    public List<BinlogFile> binlogFiles() throws SQLException {
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            return binlogFiles(statement);
        }
    }

    private static List<BinlogFile> binlogFiles(Statement statement) throws SQLException {
        List<BinlogFile> files = new ArrayList<>();
        try (ResultSet rows = statement.executeQuery("SHOW BINARY LOGS")) {
            while (rows.next()) {
                files.add(new BinlogFile(rows.getString(1), rows.getLong(2)));
            }
        }
        return files;
    }

    private static long bufferPoolBytes(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT @@innodb_buffer_pool_size")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static long dirtyPages(Statement statement) throws SQLException {
        try (ResultSet rows =
                statement.executeQuery(
                        "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'")) {
            return rows.next() ? rows.getLong(2) : 0;
        }
    }

    /** CPU seconds the private server has used so far; empty for a given server. */
    public OptionalDouble cpuSeconds() {
        return serverProcess()
                .map(process -> OptionalDouble.of(JavaProcess.cpuSeconds(process)))
                .orElse(OptionalDouble.empty());
    }

    private Optional<ProcessHandle> serverProcess() {
        if (server == null) {
            return Optional.empty();
        }
        return ProcessHandle.current()
                .descendants()
                .filter(
                        process ->
                                process.info()
                                        .command()
                                        .map(c -> c.endsWith("mariadbd") || c.endsWith("mysqld"))
                                        .orElse(false))
                .findFirst();
    }

    public String host() {
        return host;
    }

    public int port() {
        return port;
    }

    /** The user relays and the bare reader log in as. */
    public String user() {
        return user;
    }

    public String password() {
        return password;
    }

    public String database() {
        return database;
    }

    /** Whether the harness started this server. */
    public boolean isPrivate() {
        return server != null;
    }

    /** For result lines: "private MariaDB" or the given address. */
    public String describe() {
        return server != null ? "private MariaDB" : host + ":" + port;
    }

    @Override
    public void close() throws SQLException {
        if (server != null) {
            server.close();
            if (binlogDirectory != null) {
                try {
                    BinlogDirectory.delete(binlogDirectory);
                } catch (IOException e) {
                    throw new SQLException(
                            "binlog directory not removed: dir=" + binlogDirectory, e);
                }
            }
            return;
        }
        try (Connection connection = connect();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP DATABASE IF EXISTS `" + database + "`");
        }
    }
}
