package io.changegrid.console;

import static org.assertj.core.api.Assertions.assertThat;

import io.changegrid.console.config.ConsoleConfig;
import io.changegrid.consumer.api.CallbackResult;
import io.changegrid.consumer.api.ConsumerCallback;
import io.changegrid.consumer.api.EventView;
import io.changegrid.consumer.group.ApplierStatus;
import io.changegrid.consumer.group.ApplyingCallback;
import io.changegrid.consumer.group.GroupConsumer;
import io.changegrid.consumer.group.PartitionConfigs;
import io.changegrid.consumer.group.PartitionState;
import io.changegrid.consumer.group.PartitionStatus;
import io.changegrid.gridkit.server.MariaDbServer;
import io.changegrid.protocol.security.TokenTable;
import io.changegrid.relay.Relay;
import io.changegrid.relay.config.RelaySettings;
import io.changegrid.testkit.EmbeddedZooKeeperExtension;
import io.changegrid.testkit.MariaDbExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * The console in a real headless Chromium, on a real local grid: a private mariadbd, an in-process
 * ZooKeeper, a relay registered there that asks for bearer tokens (the console and the member show
 * theirs), and a consumer group member whose callback counts what it is handed and reports itself
 * as an applier ({@link ApplyingCallback}). The page shows the relay, the group and its lag, and
 * the appliers; "pause group" clicked in the page stops delivery while rows are written, "resume
 * group" delivers them. Screenshots are kept in {@code target/console-screenshots/}; with {@code
 * CHANGEGRID_WRITE_DOCS=true} the first also becomes {@code docs/console.png}.
 */
class ConsoleBrowserIT {

    private static final String GROUP = "shop-orders";
    private static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final String CONSOLE_TOKEN = "console-token-for-the-browser-test";
    private static final String MEMBER_TOKEN = "member-token-for-the-browser-test";

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final EmbeddedZooKeeperExtension ZOOKEEPER = new EmbeddedZooKeeperExtension();

    @TempDir Path work;

    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong snapshotRows = new AtomicLong();
    private final AtomicInteger snapshotStarts = new AtomicInteger();
    private final AtomicInteger snapshotCompletions = new AtomicInteger();
    private final AtomicInteger nextId = new AtomicInteger();
    private Relay relay;
    private GroupConsumer member;
    private Console console;
    private ChromeDriver browser;

    @BeforeEach
    void startGrid() throws Exception {
        MariaDbServer source = MARIADB.server();
        source.execute(
                "CREATE DATABASE IF NOT EXISTS shop",
                "CREATE TABLE IF NOT EXISTS shop.orders (id INT PRIMARY KEY, note VARCHAR(40))");
        String zooKeeper = ZOOKEEPER.zooKeeper().connectString();
        // No access file: every principal a token names may do everything, anonymous nothing.
        Path tokens =
                Files.writeString(
                        work.resolve("tokens"),
                        TokenTable.SHA256
                                + TokenTable.hash(CONSOLE_TOKEN)
                                + " console\n"
                                + TokenTable.SHA256
                                + TokenTable.hash(MEMBER_TOKEN)
                                + " member\n");
        relay =
                Relay.start(
                        RelaySettings.load(
                                Map.of(),
                                Map.ofEntries(
                                        Map.entry("source.host", source.host()),
                                        Map.entry("source.port", Integer.toString(source.port())),
                                        Map.entry("source.user", source.user()),
                                        Map.entry("source.password", source.password()),
                                        Map.entry("source.serverId", "7301"),
                                        Map.entry("source.heartbeatInterval", "200ms"),
                                        Map.entry("buffer.capacity", "16MiB"),
                                        Map.entry("buffer.segmentSize", "1MiB"),
                                        Map.entry(
                                                "state.directory",
                                                work.resolve("relay").toString()),
                                        Map.entry("http.port", "0"),
                                        Map.entry("security.tokens", tokens.toString()),
                                        Map.entry("cluster.zookeeper", zooKeeper))));
        member =
                GroupConsumer.start(
                        PartitionConfigs.of(
                                Map.of(
                                        "cluster.zookeeper",
                                        zooKeeper,
                                        "cluster.group",
                                        GROUP,
                                        "cluster.instance",
                                        "member-1",
                                        "cluster.status.port",
                                        0,
                                        "subscription.tables",
                                        "shop.orders",
                                        "subscription.partitions",
                                        2,
                                        "relay.token",
                                        MEMBER_TOKEN),
                                List.of()),
                        assignment -> new CountingApplier());
        console =
                Console.start(
                        ConsoleConfig.of(
                                Map.of(
                                        "cluster.zookeeper",
                                        zooKeeper,
                                        "http.port",
                                        "0",
                                        "sample.interval",
                                        "500ms",
                                        "relay.token",
                                        CONSOLE_TOKEN)));
        browser = HeadlessChromium.start(work.resolve("chromium-profile"));
    }

    @AfterEach
    void stopGrid() {
        if (browser != null) {
            browser.quit();
        }
        if (console != null) {
            console.close();
        }
        if (member != null) {
            member.close();
        }
        if (relay != null) {
            relay.close();
        }
    }

    @Test
    void shouldShowTheGridAndPauseAndResumeDeliveryWhenClickedInThePage() throws Exception {
        writeRows(10);
        Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> delivered.get() >= 10);

        browser.get(console.url());
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(
                        () -> {
                            assertThat(texts("[data-relay]"))
                                    .singleElement()
                                    .asString()
                                    .contains(relayUrl())
                                    .contains("RUNNING")
                                    .contains("events/s")
                                    .contains("buffer fill");
                            // MariaDB stamps whole seconds: the relay reads lag on its own
                            // receive time, and says so.
                            assertThat(texts("[data-relay] [data-field='lag-clock']"))
                                    .containsExactly("receive-time");
                            assertThat(texts("[data-group='" + GROUP + "'] [data-field='lag']"))
                                    .hasSize(2)
                                    .allSatisfy(lag -> assertThat(lag).matches("[0-9.,]+ m?s"));
                            assertThat(texts("#topology"))
                                    .singleElement()
                                    .asString()
                                    .contains(relayUrl())
                                    .contains("group " + GROUP)
                                    .contains("member-1");
                            assertThat(texts("[data-applier]"))
                                    .hasSize(2)
                                    .allSatisfy(
                                            card ->
                                                    assertThat(card)
                                                            .contains(CountingApplier.TARGET)
                                                            .contains("rows/s")
                                                            .contains("member-1"));
                            assertThat(
                                            texts("[data-applier] [data-field='rows']").stream()
                                                    .mapToLong(ConsoleBrowserIT::number)
                                                    .sum())
                                    .isEqualTo(delivered.get());
                        });
        saveScreenshot("console-running.png", 1280, 1800);
        if ("true".equals(System.getenv("CHANGEGRID_WRITE_DOCS"))) {
            Path docs = Path.of("..", "docs", "console.png");
            Files.copy(
                    SCREENSHOTS.resolve("console-running.png"),
                    docs,
                    StandardCopyOption.REPLACE_EXISTING);
        }

        click(By.cssSelector("[data-group='" + GROUP + "'] [data-action='pause-group']"));
        awaitPageStates("PAUSED");
        awaitMemberStates(PartitionState.PAUSED);
        long beforePause = delivered.get();
        long newestBefore = relay.buffer().newestScn();
        writeRows(20);
        // The rows reached the relay, and for three seconds nothing reached the callback.
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .until(() -> relay.buffer().newestScn() > newestBefore);
        Awaitility.await()
                .during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(10))
                .until(() -> delivered.get() == beforePause);
        saveScreenshot("console-paused.png", 1280, 1400);

        click(By.cssSelector("[data-group='" + GROUP + "'] [data-action='resume-group']"));
        awaitPageStates("RUNNING");
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> delivered.get() >= beforePause + 20);

        // Rewind partition 0 to the oldest SCN the relay holds: pause it, type the SCN, reset.
        long rewindTo = relay.buffer().oldestScn();
        click(
                By.cssSelector(
                        "[data-group='"
                                + GROUP
                                + "'] tr[data-partition='0'] [data-action='pause-partition']"));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(
                        () ->
                                assertThat(member.status().partitions().get(0).state())
                                        .isEqualTo(PartitionState.PAUSED));
        browser.findElement(By.id("scn-" + GROUP + "-0")).sendKeys(Long.toString(rewindTo));
        click(
                By.cssSelector(
                        "[data-group='"
                                + GROUP
                                + "'] tr[data-partition='0'] [data-action='reset-partition']"));
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(
                        () ->
                                assertThat(member.status().partitions().get(0).startScn())
                                        .isEqualTo(rewindTo));
        long beforeRewind = delivered.get();
        click(
                By.cssSelector(
                        "[data-group='"
                                + GROUP
                                + "'] tr[data-partition='0'] [data-action='resume-partition']"));
        // No new rows: what arrives now is partition 0 delivered again from the reset SCN.
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> delivered.get() > beforeRewind);

        // Re-seed partition 0: its owner begins a snapshot of its subscription at its checkpoint.
        click(
                By.cssSelector(
                        "[data-group='"
                                + GROUP
                                + "'] tr[data-partition='0'] [data-action='reseed-partition']"));
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> snapshotCompletions.get() > 0);
        assertThat(snapshotStarts.get()).as("tables begun").isEqualTo(1);
        assertThat(snapshotRows.get()).as("rows of partition 0 copied").isPositive();
        saveScreenshot("console-phone.png", 390, 1600);
    }

    private static long number(String text) {
        return Long.parseLong(text.replaceAll("[^0-9]", ""));
    }

    /**
     * The member's callback: counts the events it is handed, and reports the count as rows applied
     * into a pretend target, so that the console shows the partition as an applier.
     */
    private final class CountingApplier implements ConsumerCallback, ApplyingCallback {

        static final String TARGET = "counting://in-memory";

        private final AtomicLong rows = new AtomicLong();

        @Override
        public CallbackResult onEvent(EventView event) {
            if (event.isSnapshot()) {
                snapshotRows.incrementAndGet();
            }
            delivered.incrementAndGet();
            rows.incrementAndGet();
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onSnapshotStart(String database, String table) {
            snapshotStarts.incrementAndGet();
            return CallbackResult.SUCCESS;
        }

        @Override
        public CallbackResult onSnapshotComplete() {
            snapshotCompletions.incrementAndGet();
            return CallbackResult.SUCCESS;
        }

        @Override
        public ApplierStatus applierStatus() {
            return new ApplierStatus(TARGET, 1, rows.get(), 0, 0, null);
        }
    }

    private void writeRows(int rows) throws Exception {
        String[] inserts = new String[rows];
        for (int i = 0; i < rows; i++) {
            int id = nextId.incrementAndGet();
            inserts[i] = "INSERT INTO shop.orders VALUES (" + id + ", 'order " + id + "')";
        }
        MARIADB.server().execute(inserts);
    }

    /**
     * The text of every element {@code css} selects, read in one script so that a re-render between
     * finding and reading cannot leave a stale element.
     */
    private List<String> texts(String css) {
        Object found =
                browser.executeScript(
                        "return [...document.querySelectorAll(arguments[0])]"
                                + ".map(e => e.textContent.replace(/\\s+/g, ' ').trim())",
                        css);
        List<String> texts = new java.util.ArrayList<>();
        for (Object text : (List<?>) found) {
            texts.add(String.valueOf(text));
        }
        return texts;
    }

    private String relayUrl() {
        return "http://127.0.0.1:" + relay.httpPort();
    }

    /** Clicks once the page re-rendered the button (it is re-rendered every sample). */
    private void click(By selector) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .ignoreExceptions()
                .until(
                        () -> {
                            browser.findElement(selector).click();
                            return true;
                        });
    }

    private void awaitPageStates(String state) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .ignoreExceptions()
                .untilAsserted(
                        () ->
                                assertThat(
                                                browser.findElements(
                                                        By.cssSelector(
                                                                "[data-group='"
                                                                        + GROUP
                                                                        + "'] [data-field='partition-state']")))
                                        .hasSize(2)
                                        .allSatisfy(
                                                cell ->
                                                        assertThat(cell.getText())
                                                                .isEqualTo(state)));
    }

    private void awaitMemberStates(PartitionState state) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(20))
                .untilAsserted(
                        () ->
                                assertThat(member.status().partitions())
                                        .extracting(PartitionStatus::state)
                                        .containsOnly(state));
    }

    private void saveScreenshot(String name, int width, int height) throws Exception {
        browser.manage().window().setSize(new Dimension(width, height));
        // One more render at this width before the picture.
        long sampled = sampledAt();
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> sampledAt() != sampled);
        Files.createDirectories(SCREENSHOTS);
        Path taken = browser.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(taken, SCREENSHOTS.resolve(name), StandardCopyOption.REPLACE_EXISTING);
    }

    private long sampledAt() {
        Object text =
                browser.executeScript("return document.getElementById('sampled').textContent");
        return String.valueOf(text).hashCode();
    }

    /** Debian's chromium driven by its chromedriver, with the flags a closed network needs. */
    static final class HeadlessChromium {

        private HeadlessChromium() {}

        static ChromeDriver start(Path profile) throws Exception {
            for (Path needed :
                    List.of(Path.of("/usr/bin/chromium"), Path.of("/usr/bin/chromedriver"))) {
                if (!Files.isExecutable(needed)) {
                    throw new IllegalStateException(
                            "the browser test needs Debian's chromium and chromedriver (.ci/run installs"
                                    + " them): apt-get install -y chromium chromium-driver; missing="
                                    + needed);
                }
            }
            Files.createDirectories(profile);
            ChromeOptions options = new ChromeOptions();
            options.setBinary("/usr/bin/chromium");
            options.addArguments(
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--disable-quic",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-dev-shm-usage",
                    "--window-size=1280,1400",
                    "--user-data-dir=" + profile.toAbsolutePath());
            ChromeDriverService service =
                    new ChromeDriverService.Builder()
                            .usingDriverExecutable(Path.of("/usr/bin/chromedriver").toFile())
                            .usingAnyFreePort()
                            .build();
            return new ChromeDriver(service, options);
        }
    }
}
