/**
 * The relay API's small JSON answers (status documents, errors naming what was wrong), shared by
 * the HTTP endpoints and the stream, which both depend on it and not on each other's package.
 */
package io.changegrid.relay.response;
