/** A test-only source behind the fetcher SPI, to prove the relay's seam with a second fetcher. */
package io.changegrid.relay.generated;
