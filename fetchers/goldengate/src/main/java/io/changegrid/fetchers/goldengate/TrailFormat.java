package io.changegrid.fetchers.goldengate;

/**
 * The record format of the files read ({@code source.format}). Only GoldenGate for Big Data's JSON
 * formatter is read so far; the XML format LinkedIn Databus read is not built yet.
 */
public enum TrailFormat {
    /** One JSON object per operation and line (the JSON formatter, operation-based). */
    JSON
}
