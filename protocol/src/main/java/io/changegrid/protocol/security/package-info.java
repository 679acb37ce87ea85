/**
 * Who sends a request to one of the grid's servers (docs/security.md), written once for the relay
 * and the console: principals named by a bearer token ({@link
 * io.changegrid.protocol.security.TokenTable}) or a client certificate, recognized by {@link
 * io.changegrid.protocol.security.RequestAuthenticator}; the access file's entries ({@link
 * io.changegrid.protocol.security.AccessFile}), among them the operations role; and the {@code
 * security.*} keys ({@link io.changegrid.protocol.security.SecuritySettings}).
 */
package io.changegrid.protocol.security;
