/**
 * The console's HTTP side on Jetty's core API: one handler per endpoint, routed by path — the pages
 * and their assets, the grid document the pages poll, the control operations — the API behind the
 * grid's authentication ({@link io.changegrid.protocol.security.RequestAuthenticator}) and the
 * operations role ({@link io.changegrid.console.http.OperatorAccess}).
 */
package io.changegrid.console.http;
