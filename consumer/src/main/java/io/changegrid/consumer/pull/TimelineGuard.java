package io.changegrid.consumer.pull;

import java.net.URI;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a consumer on the timeline of its checkpoint (docs/consumer.md, "When the source server
 * changes"): a relay that names another timeline ({@code X-Changegrid-Timeline}) numbers other
 * transactions with the same SCNs, so continuing there would skip or repeat without a trace. The
 * consumer stops instead, naming both timelines.
 *
 * <p>A checkpoint saved without a timeline (by an older consumer, or a store that keeps none) takes
 * the first one a relay names, and hands it to the checkpoint store. A relay that names none (an
 * older relay, a source that cannot) is not judged.
 *
 * <p>It also says so, once per relay, when a relay on the right timeline holds nothing up to the
 * checkpoint (its newest SCN is below it): that relay is behind (restarted, catching up) and the
 * consumer waits for it, not silently.
 *
 * <p>Not thread-safe: the puller's thread only; {@link #timeline()} may be read from any thread.
 */
final class TimelineGuard {

    private static final Logger LOG = LoggerFactory.getLogger(TimelineGuard.class);

    private final Consumer<String> adopt;
    private volatile String timeline;
    private URI warnedBehind;

    /**
     * @param checkpointTimeline the saved checkpoint's timeline, or null when none was saved
     * @param adopt told the timeline a checkpoint without one takes
     */
    TimelineGuard(String checkpointTimeline, Consumer<String> adopt) {
        this.timeline = checkpointTimeline;
        this.adopt = adopt;
    }

    /**
     * Judges a relay's answer.
     *
     * @param position the checkpoint asked from
     * @return null if the consumer may take it, else what is wrong, for the consumer's error
     */
    String judge(URI relay, StreamHeaders headers, long position) {
        String named = headers.timeline();
        if (named == null || named.isEmpty()) {
            return null;
        }
        if (timeline == null) {
            timeline = named;
            adopt.accept(named);
            LOG.info(
                    "checkpoint takes the relays' timeline: relay={}, timeline={}, checkpoint={}",
                    relay,
                    named,
                    position);
        } else if (!timeline.equals(named)) {
            return "relay serves another timeline than the checkpoint's: relay="
                    + relay
                    + ", relayTimeline="
                    + named
                    + ", checkpointTimeline="
                    + timeline
                    + ", checkpoint="
                    + position
                    + "; its SCNs name other transactions (the source server changed under a relay"
                    + " resuming by position, or a relay's state was reset): bootstrap the consumer,"
                    + " or point it at relays of the checkpoint's timeline (docs/consumer.md)";
        }
        if (position >= 0 && headers.newestScn() < position && headers.lastScn() == position) {
            if (!relay.equals(warnedBehind)) {
                warnedBehind = relay;
                LOG.warn(
                        "relay holds nothing up to the checkpoint yet, waiting for it: relay={},"
                                + " newestScn={}, checkpoint={}, timeline={}",
                        relay,
                        headers.newestScn(),
                        position,
                        named);
            }
        } else if (relay.equals(warnedBehind)) {
            warnedBehind = null;
        }
        return null;
    }

    /** The timeline the consumer is on, or null before a relay named one. */
    String timeline() {
        return timeline;
    }
}
