/** The relay's publisher: whole transactions from the fetcher into the event buffer. */
package io.changegrid.relay.publish;
