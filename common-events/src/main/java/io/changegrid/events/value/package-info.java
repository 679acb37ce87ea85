/**
 * Source-independent value types and the Java classes that carry values the JDK's own types cannot
 * hold losslessly (zero dates, geometries).
 */
package io.changegrid.events.value;
