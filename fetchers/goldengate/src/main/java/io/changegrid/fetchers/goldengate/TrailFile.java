package io.changegrid.fetchers.goldengate;

import java.nio.file.Path;

/**
 * One file of the File Writer's output as last listed.
 *
 * @param path its name when listed; the File Writer renames it when it finalizes it
 * @param firstScn the SCN of its first record: what identifies it across the rename, and orders the
 *     files along the trail
 * @param finalized whether its name says the File Writer has finished it
 */
record TrailFile(Path path, long firstScn, boolean finalized) {}
