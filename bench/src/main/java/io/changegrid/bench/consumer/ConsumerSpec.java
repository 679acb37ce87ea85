package io.changegrid.bench.consumer;

import io.changegrid.bench.harness.Partitioning;
import java.util.ArrayList;
import java.util.List;

/**
 * One measuring consumer of a run.
 *
 * @param index its number in the run
 * @param relayUrl the relay it pulls from
 * @param partition the partition it receives, of {@code partitions}
 * @param partitions how many consumers split that relay's stream (1: it takes all)
 * @param partitioning how they split it
 * @param database the load's database (a split by table names its tables)
 * @param format binary (the consumer library) or json (HTTP client and a streaming parser)
 * @param compression none or gzip
 * @param endScn the checkpoint that means the whole range was read
 * @param bufferBytes the consumer event buffer's size
 * @param relayCredentials {@code --trust-store} and {@code --token-file} for relays with {@code
 *     --tls}, or empty
 */
public record ConsumerSpec(
        int index,
        String relayUrl,
        int partition,
        int partitions,
        Partitioning partitioning,
        String database,
        String format,
        String compression,
        long endScn,
        long bufferBytes,
        List<String> relayCredentials) {

    public ConsumerSpec {
        relayCredentials = List.copyOf(relayCredentials);
    }

    /** The same consumer with the arguments naming its relays' trust store and token. */
    public ConsumerSpec withRelayCredentials(List<String> arguments) {
        return new ConsumerSpec(
                index,
                relayUrl,
                partition,
                partitions,
                partitioning,
                database,
                format,
                compression,
                endScn,
                bufferBytes,
                arguments);
    }

    /**
     * The consumers of a run: consumer {@code j} pulls from relay {@code j mod relays}; the
     * consumers of one relay split its stream between them.
     */
    public static List<ConsumerSpec> assign(
            List<String> relayUrls,
            int consumers,
            Partitioning partitioning,
            String database,
            String format,
            String compression,
            long endScn,
            long bufferBytes) {
        int relays = relayUrls.size();
        List<ConsumerSpec> specs = new ArrayList<>();
        for (int j = 0; j < consumers; j++) {
            int relay = j % relays;
            int sharing = consumers / relays + (relay < consumers % relays ? 1 : 0);
            specs.add(
                    new ConsumerSpec(
                            j,
                            relayUrls.get(relay),
                            j / relays,
                            sharing,
                            partitioning,
                            database,
                            format,
                            compression,
                            endScn,
                            bufferBytes,
                            List.of()));
        }
        return specs;
    }

    /** The arguments of {@link MeasuringConsumerMain}. */
    List<String> arguments() {
        List<String> arguments = new ArrayList<>(relayCredentials);
        arguments.addAll(
                List.of(
                        "--relay", relayUrl,
                        "--partition", Integer.toString(partition),
                        "--partitions", Integer.toString(partitions),
                        "--partitioning", partitioning.label(),
                        "--database", database,
                        "--format", format,
                        "--compression", compression,
                        "--end-scn", Long.toString(endScn),
                        "--buffer-size", Long.toString(bufferBytes)));
        return arguments;
    }
}
