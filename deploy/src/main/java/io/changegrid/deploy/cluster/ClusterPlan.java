package io.changegrid.deploy.cluster;

import java.util.Properties;

/**
 * What a local cluster runs, chosen at {@code start} and kept in {@code cluster.properties} so that
 * {@code add-consumer} makes members like the others.
 *
 * @param group the consumer group's name
 * @param partitions the group's partitions
 * @param quorum members the group waits for before assigning
 * @param sessionTimeout ZooKeeper session timeout of consumers and relays, e.g. {@code 30s}
 * @param heartbeat the relays' heartbeat interval, e.g. {@code 500ms}
 * @param callback the consumers' {@code callback.type}
 * @param javaOptions JVM options of relays and consumers, space-separated
 * @param secure whether the grid runs with TLS, tokens and ZooKeeper ACLs ({@link ClusterSecurity})
 */
record ClusterPlan(
        String group,
        int partitions,
        int quorum,
        String sessionTimeout,
        String heartbeat,
        String callback,
        String javaOptions,
        boolean secure) {

    void store(Properties properties) {
        properties.setProperty("group", group);
        properties.setProperty("partitions", Integer.toString(partitions));
        properties.setProperty("quorum", Integer.toString(quorum));
        properties.setProperty("sessionTimeout", sessionTimeout);
        properties.setProperty("heartbeat", heartbeat);
        properties.setProperty("callback", callback);
        properties.setProperty("javaOptions", javaOptions);
        properties.setProperty("secure", Boolean.toString(secure));
    }

    static ClusterPlan load(Properties properties) {
        if (properties.getProperty("group") == null) {
            throw new IllegalStateException("no cluster was started in this directory");
        }
        return new ClusterPlan(
                properties.getProperty("group"),
                Integer.parseInt(properties.getProperty("partitions")),
                Integer.parseInt(properties.getProperty("quorum")),
                properties.getProperty("sessionTimeout"),
                properties.getProperty("heartbeat"),
                properties.getProperty("callback"),
                properties.getProperty("javaOptions"),
                Boolean.parseBoolean(properties.getProperty("secure", "false")));
    }

    java.util.List<String> javaOptionList() {
        return javaOptions.isBlank()
                ? java.util.List.of()
                : java.util.List.of(javaOptions.trim().split("\\s+"));
    }
}
