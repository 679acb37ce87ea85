/**
 * The console's samples: every interval the grid is read from ZooKeeper, each relay's status and
 * metrics and each member's status polled, and the rates and lags kept for the charts over the
 * history window.
 */
package io.changegrid.console.sample;
