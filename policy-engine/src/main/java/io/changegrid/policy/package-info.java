/**
 * Replication policies: which tables, columns and rows a stream carries ({@code select}), how they
 * are reshaped on the way ({@code transform}), how a stream is split ({@code partition}) and how an
 * applier settles a change that meets a newer row ({@code conflict}). Policies are written in YAML,
 * parsed and compiled once ({@code config}); compiled objects are immutable and thread-safe.
 */
package io.changegrid.policy;
