/** The relay's HTTP API on Jetty 12 core handlers: one handler per endpoint. */
package io.changegrid.relay.http;
