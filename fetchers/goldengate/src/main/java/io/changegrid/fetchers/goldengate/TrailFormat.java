package io.changegrid.fetchers.goldengate;

/** The record format of the files read ({@code source.format}). */
public enum TrailFormat {
    /** One JSON object per operation and line (the JSON formatter, operation-based). */
    JSON,
    /**
     * GoldenGate's XML output as LinkedIn Databus read it: a stream of {@code <transaction>}
     * elements, files named with a sequence number.
     */
    XML
}
