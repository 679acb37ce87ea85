package io.changegrid.fetchers.mysql;

/**
 * The fetcher stopped at a DDL statement on a captured table that the schema tracker cannot
 * understand. Carries the statement's {@link DdlDigest}, by which {@code source.ddlSkip} or {@code
 * relay recover-schema} lets the relay pass it.
 */
public final class UnreadableDdlException extends FetchFailedException {

    private static final long serialVersionUID = 1L;

    private final String digest;

    UnreadableDdlException(String message, String digest) {
        super(message);
        this.digest = digest;
    }

    /** The statement's digest. */
    public String digest() {
        return digest;
    }
}
