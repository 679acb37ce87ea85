/**
 * Certificates for local grids and benchmarks, made at run time with the JDK's keytool: a local CA
 * and a server certificate for the loopback address.
 */
package io.changegrid.gridkit.tls;
