/**
 * The {@code report} command: results files to markdown tables, next to the whitepaper's figures
 * for the same configurations, and PNG bar charts like the whitepaper's figures.
 */
package io.changegrid.bench.report;
