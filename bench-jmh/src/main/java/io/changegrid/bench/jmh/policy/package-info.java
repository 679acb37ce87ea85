/** JMH benchmarks of policies: the relay's per-event chain and the subscription filter. */
package io.changegrid.bench.jmh.policy;
