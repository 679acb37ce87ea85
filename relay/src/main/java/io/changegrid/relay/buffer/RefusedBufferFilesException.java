package io.changegrid.relay.buffer;

/**
 * The buffer directory holds files the relay must neither serve nor overwrite: another source's
 * segment files, or a directory another relay has locked. The relay does not start; the message
 * names the files and what to do.
 */
public final class RefusedBufferFilesException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    RefusedBufferFilesException(String message) {
        super(message);
    }
}
