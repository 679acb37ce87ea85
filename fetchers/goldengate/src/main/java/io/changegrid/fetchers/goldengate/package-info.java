/**
 * The Oracle GoldenGate fetcher ({@code source.type: goldengate}): reads the operation records that
 * GoldenGate for Big Data's File Writer handler writes with the JSON formatter into a directory,
 * finalized files in trail order and the file still being written up to its last complete line. A
 * transaction's SCN is the trail position ({@code pos}: sequence number and RBA) of its first
 * operation; schemas come from GoldenGate's generated JSON schema files or from the relay's
 * configuration; rows go through the policy engine's capture router like every fetcher's. See
 * {@code docs/sources/goldengate.md}.
 */
package io.changegrid.fetchers.goldengate;
