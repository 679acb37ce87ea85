package io.changegrid.appliers.conflict;

import io.changegrid.policy.conflict.RejectionListener;
import io.changegrid.policy.conflict.RowVersion;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records each change {@code REJECT_AND_RECORD} keeps out as a WARN line naming both versions and
 * the reason, and counts them: the runnable applier's record, where an embedder may give its own
 * {@link RejectionListener}. Thread-safe (lanes commit on their own threads).
 */
public final class LoggedRejections implements RejectionListener {

    private static final Logger LOG = LoggerFactory.getLogger(LoggedRejections.class);

    private final AtomicLong rejected = new AtomicLong();

    @Override
    public void onRejected(RowVersion incoming, RowVersion current, String reason) {
        long count = rejected.incrementAndGet();
        LOG.warn(
                "conflict: change rejected and recorded: incoming={}, current={}, reason={},"
                        + " rejected={}",
                incoming,
                current,
                reason,
                count);
    }

    /** Changes rejected so far. */
    public long rejected() {
        return rejected.get();
    }
}
