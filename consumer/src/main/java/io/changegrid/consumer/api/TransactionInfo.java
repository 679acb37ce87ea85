package io.changegrid.consumer.api;

/**
 * One source transaction as {@link ConsumerCallback#onStartTransaction} and {@link
 * ConsumerCallback#onEndTransaction} see it. An immutable value: it may be kept.
 *
 * @param sourceId the source's id
 * @param scn the transaction's position on the source's timeline; the consumer's checkpoint after
 *     it
 * @param transactionId the source's id of the transaction (e.g. a GTID)
 * @param commitTimeMicros the source commit time, microseconds since the epoch
 * @param eventCount the number of events the transaction had at the source
 * @param deliveredCount the number of events this consumer receives for it: fewer than {@code
 *     eventCount} when a table or partition subscription left some out
 */
public record TransactionInfo(
        int sourceId,
        long scn,
        String transactionId,
        long commitTimeMicros,
        int eventCount,
        int deliveredCount) {}
