package io.changegrid.fetchers.mysql;

/**
 * A source transaction grew past the largest one the relay can publish whole. Fatal for the
 * fetcher: splitting it would hand consumers a partial transaction, and skipping it would lose it.
 */
public final class TransactionTooLargeException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TransactionTooLargeException(String message) {
        super(message);
    }
}
