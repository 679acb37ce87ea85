package io.changegrid.deploy.cluster;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import io.changegrid.config.PrivateFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Writes the YAML files a local cluster's relays and consumers run with, as an operator would: the
 * settings of docs/relay-configuration.md and docs/consumer-configuration.md, dotted keys, one per
 * line.
 */
final class ComponentConfigs {

    private ComponentConfigs() {}

    /**
     * A relay of the private source, registering itself in the cluster's ZooKeeper.
     *
     * @param security settings of a secured grid ({@link ClusterSecurity#relaySettings}), or none
     */
    static Path relay(
            ClusterDirectory directory,
            String name,
            int serverId,
            int httpPort,
            ClusterPlan plan,
            Properties source,
            String zooKeeper,
            Map<String, Object> security)
            throws IOException {
        Path home = directory.relayDirectory(name);
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("source.id", 1);
        settings.put("source.host", source.getProperty("host"));
        settings.put("source.port", Integer.parseInt(source.getProperty("port")));
        settings.put("source.user", source.getProperty("user"));
        settings.put("source.password", source.getProperty("password"));
        settings.put("source.serverId", serverId);
        settings.put("source.heartbeatInterval", plan.heartbeat());
        settings.put("capture.include", List.of("shop.*"));
        settings.put("buffer.capacity", "64MiB");
        settings.put("buffer.segmentSize", "4MiB");
        settings.put("state.directory", home.resolve("state").toString());
        settings.put("http.port", httpPort);
        settings.put("cluster.zookeeper", zooKeeper);
        settings.put("cluster.sessionTimeout", plan.sessionTimeout());
        settings.putAll(security);
        return write(home.resolve("relay.yaml"), settings);
    }

    /**
     * A member of the cluster's consumer group, finding the relays in ZooKeeper.
     *
     * @param security settings of a secured grid ({@link ClusterSecurity#consumerSettings}), or
     *     none
     */
    static Path consumer(
            ClusterDirectory directory,
            String instance,
            int statusPort,
            ClusterPlan plan,
            String zooKeeper,
            Map<String, Object> security)
            throws IOException {
        Path home = directory.consumerDirectory(instance);
        Map<String, Object> settings = new LinkedHashMap<>();
        settings.put("cluster.zookeeper", zooKeeper);
        settings.put("cluster.group", plan.group());
        settings.put("cluster.instance", instance);
        settings.put("cluster.quorum", plan.quorum());
        settings.put("cluster.sessionTimeout", plan.sessionTimeout());
        settings.put("cluster.status.port", statusPort);
        settings.put("subscription.tables", List.of("shop.*"));
        settings.put("subscription.partitions", plan.partitions());
        // A member may come to own every partition, each with a buffer of its own.
        settings.put("buffer.capacity", "4MiB");
        settings.put("fetch.maxBytes", "256KiB");
        settings.put("fetch.pollTimeout", "2s");
        settings.put("fetch.requestTimeout", "3s");
        settings.put("callback.type", plan.callback());
        settings.put("callback.jsonl.file", home.resolve("events.jsonl").toString());
        settings.putAll(security);
        return write(home.resolve("consumer.yaml"), settings);
    }

    private static Path write(Path file, Map<String, Object> settings) throws IOException {
        Files.createDirectories(file.getParent());
        StringBuilder yaml = new StringBuilder("# written by deploy/bin/local-cluster.sh\n");
        settings.forEach(
                (key, value) -> yaml.append(key).append(": ").append(scalar(value)).append('\n'));
        // A relay's file holds the source password: owner-only, 0600.
        PrivateFile.write(file, yaml);
        return file;
    }

    /** A YAML value: numbers as they are, strings and list items JSON-quoted (valid YAML). */
    private static String scalar(Object value) {
        if (value instanceof Number) {
            return value.toString();
        }
        if (value instanceof List<?> list) {
            StringBuilder items = new StringBuilder("[");
            for (Object item : list) {
                items.append(items.length() > 1 ? ", " : "").append(scalar(item));
            }
            return items.append(']').toString();
        }
        return "\""
                + new String(JsonStringEncoder.getInstance().quoteAsString(value.toString()))
                + "\"";
    }
}
