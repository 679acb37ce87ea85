package io.changegrid.consumer.group;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class ConsumerMainTest {

    @TempDir Path directory;

    @Test
    void shouldListEveryProblemAndExitWithTwoWhenTheConfigurationIsInvalid() throws Exception {
        Path file = directory.resolve("consumer.yaml");
        Files.writeString(
                file,
                String.join(
                        "\n",
                        "relays: [http://relay1:7070]",
                        "buffer:",
                        "  capacity: 1KiB",
                        "batch:",
                        "  maxTransaction: 10",
                        ""));
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new ConsumerMain()).setErr(new PrintWriter(err));

        int status =
                command.execute(
                        "--config", file.toString(), "--set", "callback.type=com.example.Missing");

        assertThat(status).isEqualTo(2);
        assertThat(err.toString())
                .contains("invalid configuration (2 problems)")
                .contains(
                        "unknown key: path=batch.maxTransaction; did you mean batch.maxTransactions?")
                .contains("bad value: path=buffer.capacity, value=1KiB: must be 64KiB..1GiB");
    }

    @Test
    void shouldNameTheCallbackClassAndExitWithTwoWhenItCannotBeLoaded() {
        StringWriter err = new StringWriter();
        CommandLine command = new CommandLine(new ConsumerMain()).setErr(new PrintWriter(err));

        int status =
                command.execute(
                        "--set", "relays=http://relay1:7070",
                        "--set", "callback.type=com.example.Missing");

        assertThat(status).isEqualTo(2);
        assertThat(err.toString())
                .contains(
                        "bad value: path=callback.type, value=com.example.Missing: no such class");
    }
}
