/** Checkpoint stores: where a consumer keeps the SCN it resumes after. */
package io.changegrid.consumer.checkpoint;
