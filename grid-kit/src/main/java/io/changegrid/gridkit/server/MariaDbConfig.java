package io.changegrid.gridkit.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How to run a private {@code mariadbd}; immutable and validated when built, every problem reported
 * at once.
 *
 * <pre>{@code
 * var config = MariaDbConfig.builder()
 *         .binlogFormat(MariaDbConfig.BinlogFormat.STATEMENT)
 *         .serverId(7)
 *         .extraOption("--gtid-strict-mode=ON")
 *         .build();
 * }</pre>
 *
 * @param serverId {@code --server-id}, 1..4294967295
 * @param binlogFormat {@code --binlog-format}
 * @param binlogRowImage {@code --binlog-row-image}
 * @param extraOptions further {@code --name=value} options, passed last so they win over the
 *     fixture's defaults; options that would take the server out of the fixture's control (data
 *     directory, port, socket, user, option files) are rejected
 * @param startupTimeout how long to wait for the server to accept JDBC connections
 * @param shutdownTimeout how long to wait for a clean shutdown before killing the server
 */
public record MariaDbConfig(
        long serverId,
        BinlogFormat binlogFormat,
        BinlogRowImage binlogRowImage,
        List<String> extraOptions,
        Duration startupTimeout,
        Duration shutdownTimeout) {

    /** Values of {@code binlog_format}. */
    public enum BinlogFormat {
        ROW,
        STATEMENT,
        MIXED
    }

    /** Values of {@code binlog_row_image}. */
    public enum BinlogRowImage {
        FULL,
        MINIMAL,
        NOBLOB
    }

    private static final long MAX_SERVER_ID = 4_294_967_295L;
    private static final Pattern OPTION = Pattern.compile("--([A-Za-z0-9][A-Za-z0-9_-]*)(=.*)?");
    private static final Set<String> MANAGED_OPTIONS =
            Set.of(
                    "no-defaults",
                    "defaults-file",
                    "defaults-extra-file",
                    "defaults-group-suffix",
                    "datadir",
                    "port",
                    "bind-address",
                    "socket",
                    "pid-file",
                    "log-error",
                    "user");

    /** Validates every field and reports all problems in one exception. */
    public MariaDbConfig {
        var problems = new ArrayList<String>();
        if (serverId < 1 || serverId > MAX_SERVER_ID) {
            problems.add("serverId: value=" + serverId + ", expected 1.." + MAX_SERVER_ID);
        }
        if (binlogFormat == null) {
            problems.add("binlogFormat: value=null");
        }
        if (binlogRowImage == null) {
            problems.add("binlogRowImage: value=null");
        }
        if (extraOptions == null) {
            problems.add("extraOptions: value=null");
        } else {
            for (int i = 0; i < extraOptions.size(); i++) {
                var option = extraOptions.get(i);
                var path = "extraOptions[" + i + "]: value=" + option + ", ";
                optionProblem(option).ifPresent(problem -> problems.add(path + problem));
            }
        }
        checkPositive("startupTimeout", startupTimeout, problems);
        checkPositive("shutdownTimeout", shutdownTimeout, problems);
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(
                    "invalid MariaDbConfig: " + String.join("; ", problems));
        }
        extraOptions = List.copyOf(extraOptions);
    }

    /** ROW, FULL, server id 1, no extra options, 60 s to start, 30 s to stop. */
    public static MariaDbConfig defaults() {
        return builder().build();
    }

    /** A builder preset with {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    private static Optional<String> optionProblem(String option) {
        var matcher = option == null ? null : OPTION.matcher(option);
        if (matcher == null || !matcher.matches()) {
            return Optional.of("expected --name or --name=value");
        }
        // mariadbd treats '_' and '-' alike and accepts a "loose-" prefix on any option.
        var name = matcher.group(1).toLowerCase(Locale.ROOT).replace('_', '-');
        if (name.startsWith("loose-")) {
            name = name.substring("loose-".length());
        }
        if (MANAGED_OPTIONS.contains(name)) {
            return Optional.of("reason=managed by the fixture");
        }
        return Optional.empty();
    }

    private static void checkPositive(String name, Duration value, List<String> problems) {
        if (value == null || value.isNegative() || value.isZero()) {
            problems.add(name + ": value=" + value + ", expected a positive duration");
        }
    }

    /** Builds a {@link MariaDbConfig}; not thread-safe. */
    public static final class Builder {
        private long serverId = 1;
        private BinlogFormat binlogFormat = BinlogFormat.ROW;
        private BinlogRowImage binlogRowImage = BinlogRowImage.FULL;
        private final List<String> extraOptions = new ArrayList<>();
        private Duration startupTimeout = Duration.ofSeconds(60);
        private Duration shutdownTimeout = Duration.ofSeconds(30);

        private Builder() {}

        /** {@code --server-id}; default 1. */
        public Builder serverId(long serverId) {
            this.serverId = serverId;
            return this;
        }

        /** {@code --binlog-format}; default {@link BinlogFormat#ROW}. */
        public Builder binlogFormat(BinlogFormat binlogFormat) {
            this.binlogFormat = binlogFormat;
            return this;
        }

        /** {@code --binlog-row-image}; default {@link BinlogRowImage#FULL}. */
        public Builder binlogRowImage(BinlogRowImage binlogRowImage) {
            this.binlogRowImage = binlogRowImage;
            return this;
        }

        /** Adds one {@code --name=value} (or {@code --name}) option for {@code mariadbd}. */
        public Builder extraOption(String option) {
            extraOptions.add(option);
            return this;
        }

        /** How long to wait for JDBC connections to be accepted; default 60 s. */
        public Builder startupTimeout(Duration startupTimeout) {
            this.startupTimeout = startupTimeout;
            return this;
        }

        /** How long to wait for a clean shutdown before killing; default 30 s. */
        public Builder shutdownTimeout(Duration shutdownTimeout) {
            this.shutdownTimeout = shutdownTimeout;
            return this;
        }

        /**
         * @throws IllegalArgumentException listing every invalid setting
         */
        public MariaDbConfig build() {
            return new MariaDbConfig(
                    serverId,
                    binlogFormat,
                    binlogRowImage,
                    new ArrayList<>(extraOptions),
                    startupTimeout,
                    shutdownTimeout);
        }
    }
}
