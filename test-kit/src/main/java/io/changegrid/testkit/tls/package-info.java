/** Certificates made at test time, for private servers reached over TLS. */
package io.changegrid.testkit.tls;
