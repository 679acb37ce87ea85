/** Real TLS material for tests: a certificate authority and the certificates it issues. */
package io.changegrid.testkit.tls;
