/**
 * The console's control operations on consumer groups: pause and resume a group or a partition,
 * reset a partition's checkpoint. Each is checked against the grid, written to the group's control
 * node with a version-checked write (consumer-group's {@code GroupControls}), and audited in the
 * log. The owning member applies it under its ownership epoch, which is what fences it.
 */
package io.changegrid.console.control;
