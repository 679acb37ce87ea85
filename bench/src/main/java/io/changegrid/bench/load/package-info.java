/**
 * The load generator: realistic random rows (words, codes, skewed numbers, dates; not sequential
 * filler) written as transactions of inserts, updates and deletes, with the generator on its own
 * thread so that it is never what limits the load.
 */
package io.changegrid.bench.load;
