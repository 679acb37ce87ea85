/**
 * The puller: long-polls one relay out of a list over HTTP, checks every frame of a response,
 * copies whole transactions once into the consumer buffer, and fails over between relays at the
 * same checkpoint. Its state machine ({@link io.changegrid.consumer.pull.RelayFailover}) is pure
 * logic, apart from the HTTP exchange.
 */
package io.changegrid.consumer.pull;
