package io.changegrid.relay.state;

import java.nio.file.Path;

/**
 * The position file exists and was written, but neither of its slots passes its checksum: the
 * replay point is lost. The relay refuses to start rather than start afresh at {@code
 * source.start}, which would replace the schema history the buffered SCNs were decoded with and
 * could publish a timeline below the consumers' checkpoints.
 */
public final class CorruptPositionFileException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * @param file the position file whose both slots are corrupt
     */
    public CorruptPositionFileException(Path file) {
        super(
                "position file corrupt, both slots fail their checksum: file="
                        + file
                        + "; the relay does not start afresh on its own. Restore the state"
                        + " directory from a backup, or delete the whole state directory ("
                        + file.getParent()
                        + ") to start afresh at source.start with a new schema history (consumers"
                        + " whose checkpoints lie below that start must then bootstrap)");
    }
}
