package io.changegrid.consumer.api;

/**
 * Why a consumer stopped on its own: the relay protocol could not go on (a checkpoint no relay
 * holds, a request the relay rejects, a transaction larger than the buffer), the callback failed,
 * or the checkpoint could not be saved. The message says what and where.
 */
public class ConsumerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConsumerException(String message) {
        super(message);
    }

    public ConsumerException(String message, Throwable cause) {
        super(message, cause);
    }
}
