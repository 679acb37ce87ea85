/** The local grid: a private source, a relay, a consumer and a demo load in one command. */
package io.changegrid.deploy.local;
