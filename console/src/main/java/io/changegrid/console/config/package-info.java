/** The console's settings, defined once as data, and their validated record. */
package io.changegrid.console.config;
