/**
 * Source fetchers: each reads one source's change log with its native protocol and turns every
 * committed change into source-independent events. What is shared by all fetchers, such as which
 * tables a relay captures ({@link io.changegrid.fetchers.TableFilter}), lives here.
 */
package io.changegrid.fetchers;
