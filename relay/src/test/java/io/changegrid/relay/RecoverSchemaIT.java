package io.changegrid.relay;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.testkit.MariaDbExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A relay stopped by DDL its parser refuses on a captured table; {@code relay recover-schema}, run
 * while it is stopped, lets the next start pass the statement with the table's schema read from the
 * source, and the rows written after it are published with that schema.
 */
class RecoverSchemaIT {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    /** System-versioned columns: MariaDB accepts them, the DDL parser refuses them. */
    private static final String UNPARSEABLE =
            "ALTER TABLE shop.orders"
                    + " ADD COLUMN valid_from TIMESTAMP(6) GENERATED ALWAYS AS ROW START,"
                    + " ADD COLUMN valid_to TIMESTAMP(6) GENERATED ALWAYS AS ROW END,"
                    + " ADD PERIOD FOR SYSTEM_TIME(valid_from, valid_to),"
                    + " ADD SYSTEM VERSIONING";

    @TempDir Path state;

    @Test
    void shouldPassTheStatementWithTheSourceSchemaWhenRecoverSchemaRanAfterTheStop()
            throws Exception {
        MariaDbServer server = MARIADB.server();
        server.execute(
                "CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id INT PRIMARY KEY, note VARCHAR(20))");
        Relay stopped = Relay.start(RelayIT.config(server, state, 9_141));
        try {
            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> stopped.buffer().newestScn() >= 0);
            server.execute("INSERT INTO shop.orders VALUES (1, 'before')", UNPARSEABLE);
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> stopped.failure() != null);
            assertThat(stopped.failure().getMessage())
                    .contains("DDL on a captured table could not be understood")
                    .contains("relay recover-schema");
            assertThat(stopped.health().fetchState()).isEqualTo("FAILED");
        } finally {
            stopped.close();
        }
        server.execute("INSERT INTO shop.orders (id, note) VALUES (2, 'after')");

        StringWriter out = new StringWriter();
        CommandLine command = new CommandLine(new RelayMain());
        command.setOut(new PrintWriter(out));
        int exit = command.execute(arguments(server, "recover-schema"));
        assertThat(exit).as(out.toString()).isZero();
        assertThat(out.toString()).contains("recorded for skipping").contains("digest=");
        assertThat(Files.readString(state.resolve("ddl-skip"))).hasSize(65);

        Relay restarted = Relay.start(RelayIT.config(server, state, 9_141));
        try {
            StreamClient client = new StreamClient(restarted.httpPort());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(20))
                    .until(() -> streamed(client).contains("\"note\":\"after\""));
            String json = streamed(client);
            assertThat(json).contains("\"ddl\":\"" + UNPARSEABLE + "\"");
            assertThat(json).containsPattern("\"note\":\"after\",\"valid_from\":[^}]*\"valid_to\"");
            assertThat(restarted.failure()).isNull();
        } finally {
            restarted.close();
        }
    }

    private static String streamed(StreamClient client) throws Exception {
        HttpResponse<String> response =
                client.getText("/v1/stream?from=-1&timeoutMs=0&format=json&maxBytes=1048576");
        return response.body();
    }

    /** The command line of {@code command} for the relay {@link RelayIT#config} configures. */
    private String[] arguments(MariaDbServer server, String command) {
        List<String> arguments = new ArrayList<>(List.of(command));
        for (String setting :
                List.of(
                        "source.host=" + server.host(),
                        "source.port=" + server.port(),
                        "source.user=" + server.user(),
                        "source.password=" + server.password(),
                        "source.serverId=9141",
                        "state.directory=" + state)) {
            arguments.add("--set");
            arguments.add(setting);
        }
        return arguments.toArray(String[]::new);
    }
}
