/**
 * The console's HTTP side on Jetty's core API: one handler per endpoint, routed by path — the pages
 * and their assets, the grid document the pages poll, the control operations — behind one
 * authentication seam ({@link io.changegrid.console.http.RequestAuthenticator}).
 */
package io.changegrid.console.http;
