/**
 * GoldenGate for Big Data's output without GoldenGate: {@link
 * io.changegrid.gridkit.goldengate.TrailFileWriter} writes JSON formatter operation records into a
 * directory the way the File Writer handler does (one record a line, files rolled by size and time
 * and renamed when finalized, trail positions of sequence number and RBA), for the tests and the
 * bench alike.
 */
package io.changegrid.gridkit.goldengate;
