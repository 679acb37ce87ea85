/**
 * Who may do what on a relay's HTTP API (docs/security.md): principals named by a bearer token
 * ({@link io.changegrid.protocol.security.TokenTable}) or a client certificate, what each may
 * stream, see of it and read ({@link io.changegrid.relay.security.Grant}, from the access file
 * {@link io.changegrid.relay.security.AccessRules}), both files re-read when they change, and the
 * handler in front of every endpoint that decides once per request ({@link
 * io.changegrid.relay.security.SecurityHandler}).
 */
package io.changegrid.relay.security;
