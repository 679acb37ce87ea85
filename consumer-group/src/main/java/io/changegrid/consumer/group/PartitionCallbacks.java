package io.changegrid.consumer.group;

import io.changegrid.config.Config;
import io.changegrid.config.ConfigException;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.config.ConsumerSettings;
import io.changegrid.consumer.sink.CallbackLoader;
import io.changegrid.consumer.sink.CountingCallback;
import io.changegrid.consumer.sink.JsonLinesFileCallback;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The callbacks {@code callback.type} names, one per partition, for a group member run by {@code
 * ConsumerMain}: {@code jsonl} writes a file per partition (see {@link #fileFor}), {@code count}
 * counts, a class name is instantiated anew for each partition.
 */
public final class PartitionCallbacks implements PartitionCallbackFactory {

    private final Config config;
    private final String type;
    private final Path jsonlFile;

    private PartitionCallbacks(Config config) {
        this.config = config;
        this.type = config.get(ConsumerSettings.CALLBACK_TYPE).trim();
        this.jsonlFile = config.get(ConsumerSettings.CALLBACK_JSONL_FILE);
    }

    /**
     * The factory of a configuration, checked once: a class name must load as a callback.
     *
     * @throws ConfigException naming {@code callback.type} if it cannot
     */
    public static PartitionCallbacks from(Config config) throws IOException {
        PartitionCallbacks callbacks = new PartitionCallbacks(config);
        if (!callbacks.type.equals("jsonl") && !callbacks.type.equals("count")) {
            ConsumerCallback probe = CallbackLoader.load(config);
            if (probe instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    throw new IOException("callback did not close: type=" + callbacks.type, e);
                }
            }
        }
        return callbacks;
    }

    @Override
    public ConsumerCallback create(PartitionAssignment assignment) throws IOException {
        return switch (type) {
            case "jsonl" -> new JsonLinesFileCallback(fileFor(jsonlFile, assignment.partition()));
            case "count" -> new CountingCallback();
            default -> CallbackLoader.load(config);
        };
    }

    /**
     * The jsonl file of a partition: {@code {partition}} in the file name replaced by its number,
     * or else {@code .p<number>} put before the extension ({@code events.jsonl} → {@code
     * events.p3.jsonl}).
     */
    static Path fileFor(Path file, int partition) {
        String name = file.getFileName().toString();
        String partitionName;
        if (name.contains("{partition}")) {
            partitionName = name.replace("{partition}", Integer.toString(partition));
        } else {
            int dot = name.lastIndexOf('.');
            partitionName =
                    dot > 0
                            ? name.substring(0, dot) + ".p" + partition + name.substring(dot)
                            : name + ".p" + partition;
        }
        return file.resolveSibling(partitionName);
    }
}
