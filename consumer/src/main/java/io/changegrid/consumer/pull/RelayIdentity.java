package io.changegrid.consumer.pull;

import io.changegrid.consumer.api.ConsumerException;
import java.net.URI;

/**
 * What every answer of a consumer's relays must keep the same: the source they read (SCNs of two
 * sources are unrelated, so a list of relays that mixes sources is a configuration error;
 * continuing at one source's checkpoint on another would skip or repeat), and per relay the schema
 * fingerprint of its first answer (a relay restarted with policies that transform otherwise serves
 * other columns under table ids and versions this consumer has cached).
 *
 * <p>Not thread-safe: the puller thread's.
 */
final class RelayIdentity {

    private static final int UNKNOWN_SOURCE = -1;

    private final String[] schemaFingerprints;
    private int sourceId = UNKNOWN_SOURCE;
    private URI sourceRelay;

    RelayIdentity(int relays) {
        this.schemaFingerprints = new String[relays];
    }

    /**
     * Checks an answer's headers and remembers them.
     *
     * @return null if they agree with the earlier answers, else the error to stop the consumer with
     */
    ConsumerException check(int relayIndex, URI relay, StreamHeaders headers) {
        int relaySource = headers.sourceId();
        if (sourceId == UNKNOWN_SOURCE) {
            sourceId = relaySource;
            sourceRelay = relay;
        } else if (relaySource != sourceId) {
            return new ConsumerException(
                    "relays of different sources in one consumer: relay="
                            + relay
                            + ", sourceId="
                            + relaySource
                            + ", expected="
                            + sourceId
                            + " (the source of "
                            + sourceRelay
                            + "); list only relays of one source");
        }
        String fingerprint = headers.schemaFingerprint();
        String known = schemaFingerprints[relayIndex];
        if (known != null && fingerprint != null && !known.equals(fingerprint)) {
            return new ConsumerException(
                    "relay serves other schemas than before (restarted with other"
                            + " policies?): relay="
                            + relay
                            + ", was="
                            + known
                            + ", now="
                            + fingerprint
                            + "; restart the consumer to fetch them afresh");
        }
        schemaFingerprints[relayIndex] = fingerprint;
        return null;
    }
}
