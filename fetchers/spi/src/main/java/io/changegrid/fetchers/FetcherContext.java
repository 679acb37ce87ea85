package io.changegrid.fetchers;

import io.changegrid.config.Config;
import io.changegrid.policy.capture.CapturePlan;
import io.changegrid.policy.capture.TableFilter;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What a relay gives every fetcher it opens, whatever the source.
 *
 * @param settings the relay's validated settings; the provider reads its own {@code source.*} keys
 *     ({@link FetcherProvider#settings()}) from them
 * @param sourceId the source's id on the timeline, written into every frame (0..65535)
 * @param capture which tables the relay captures
 * @param plan what of them is published, and how: the relay's policies and partition
 * @param stateDirectory where the fetcher keeps its own state (e.g. a schema history), next to the
 *     relay's
 * @param maxTransactionBytes the largest entry the relay's buffer takes (a segment): a fetcher that
 *     can hand over parts ({@link TransactionSink#acceptPart}) cuts larger transactions into parts
 *     of {@link io.changegrid.events.frame.FrameLayout#partBytes} of it; one that cannot stops with
 *     an error naming a bigger one
 * @param resumePosition a position the sink was given earlier ({@link
 *     FetchPosition#resumePosition}), or {@code null} to start afresh where the settings say
 */
public record FetcherContext(
        Config settings,
        int sourceId,
        TableFilter capture,
        CapturePlan plan,
        Path stateDirectory,
        int maxTransactionBytes,
        String resumePosition) {

    public FetcherContext {
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(capture, "capture");
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(stateDirectory, "stateDirectory");
    }
}
