package io.changegrid.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;

/**
 * Writes files that hold secrets (configuration with passwords, credentials of a local grid)
 * readable and writable by their owner only, {@code 0600}. The file is born with those permissions
 * (a sibling created {@code 0600}, then moved into place atomically), so there is no moment when
 * another user could open it, and a reader never sees half a file.
 */
public final class PrivateFile {

    /** {@code rw-------}. */
    public static final Set<PosixFilePermission> OWNER_ONLY =
            PosixFilePermissions.fromString("rw-------");

    private PrivateFile() {}

    /** Writes {@code text} (UTF-8) to {@code file}, replacing it, with owner-only permissions. */
    public static void write(Path file, CharSequence text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path temporary = parent.resolve("." + file.getFileName() + ".tmp");
        Files.deleteIfExists(temporary);
        if (posix()) {
            FileAttribute<Set<PosixFilePermission>> ownerOnly =
                    PosixFilePermissions.asFileAttribute(OWNER_ONLY);
            Files.createFile(temporary, ownerOnly);
        }
        Files.writeString(
                temporary,
                text,
                StandardCharsets.UTF_8,
                StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE);
        Files.move(
                temporary,
                file,
                StandardCopyOption.REPLACE_EXISTING,
                StandardCopyOption.ATOMIC_MOVE);
    }

    private static boolean posix() {
        return FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
    }
}
