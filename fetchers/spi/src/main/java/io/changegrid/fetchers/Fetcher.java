package io.changegrid.fetchers;

import io.changegrid.events.schema.SchemaRegistry;

/**
 * One source's change log read into whole transactions, as a relay runs it: opened at a position by
 * its {@link FetcherProvider}, then {@link #run} on the relay's fetcher thread until {@link #stop}.
 *
 * <p>Every transaction goes through the relay's {@link io.changegrid.policy.capture.CaptureRouter}
 * (which tables, which rows, transformed how, which partition) and is handed whole to the {@link
 * TransactionSink} the fetcher was opened with, in timeline order.
 *
 * <p>Threading: {@link #run} blocks the calling thread; {@link #stop} and the getters may be called
 * from any thread.
 */
public interface Fetcher {

    /**
     * Reads until {@link #stop} or a fatal error. What retrying can fix (a lost connection) is
     * retried here; what it cannot is thrown, with a message saying what happened and what to do.
     *
     * @throws RuntimeException for what retrying cannot fix
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    void run() throws InterruptedException;

    /** Stops reading; {@link #run} returns soon after. */
    void stop();

    /** Where the next transaction starts, i.e. how far this fetcher has read completely. */
    FetchPosition position();

    /**
     * How far the source is ahead of this fetcher, in SCN units, or -1 when the source cannot be
     * asked right now.
     */
    long lagScn();

    /**
     * Whether this fetcher has reached the end of the source's log since it was opened: it has read
     * everything the source had logged at some moment after opening. Once true it stays true (a
     * later lag is ordinary streaming lag, {@link #lagScn()}). Until then the relay says it is
     * catching up: a restarted relay may be hours behind its source.
     *
     * <p>Called from any thread, at most a few times a second; may ask the source, as {@link
     * #lagScn()} does. The default, for fetchers that cannot tell, is {@code true}: such a relay
     * never says it is catching up.
     */
    default boolean reachedEnd() {
        return true;
    }

    /**
     * The identity of the timeline this fetcher's SCNs are on (docs/event-format.md, "The
     * timeline"): two relays whose fetchers name the same timeline give the same SCN to the same
     * transaction, and SCNs of different timelines cannot be compared. The relay sends it with
     * every stream response; consumers keep it with their checkpoint. Constant for a fetcher;
     * printable ASCII. Empty, the default, when the fetcher cannot name its timeline: consumers
     * then check nothing.
     */
    default String timeline() {
        return "";
    }

    /** The source's schema versions as the fetcher tracks them, for checking policies at start. */
    SchemaRegistry sourceSchemas();

    /**
     * The schema versions the published frames name: the source's without policies, else the
     * policies' output schemas. Decoders (JSON serving, {@code /v1/schemas}) look them up here.
     */
    SchemaRegistry publishedSchemas();
}
