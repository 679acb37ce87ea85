/**
 * Reading policies from the YAML tree: {@link io.changegrid.policy.config.PolicyConfig} parses and
 * compiles every policy, reporting all problems at once, each naming its path.
 */
package io.changegrid.policy.config;
