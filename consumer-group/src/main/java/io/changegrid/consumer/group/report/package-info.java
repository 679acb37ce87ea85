/** A consumer group as an operator sees it: ownership, checkpoints and lag in one document. */
package io.changegrid.consumer.group.report;
