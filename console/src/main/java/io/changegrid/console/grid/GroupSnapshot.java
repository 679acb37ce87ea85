package io.changegrid.console.grid;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.changegrid.consumer.group.control.GroupControl;

/**
 * One consumer group at one sample.
 *
 * @param group its name
 * @param report its {@code GroupReport} (members, partitions, owners, checkpoints, lag); null if it
 *     could not be read
 * @param control what operators asked of it
 * @param error why it could not be read; null otherwise
 */
public record GroupSnapshot(String group, ObjectNode report, GroupControl control, String error) {}
