/**
 * What every harness run shares: the source it loads (a private MariaDB or a given server), child
 * JVMs, the progress line, the machine's cores, and the result line appended to a results file.
 */
package io.changegrid.bench.harness;
