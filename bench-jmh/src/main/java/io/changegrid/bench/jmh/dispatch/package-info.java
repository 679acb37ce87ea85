/** JMH: the consumer's dispatcher handing whole transactions from its buffer to a callback. */
package io.changegrid.bench.jmh.dispatch;
