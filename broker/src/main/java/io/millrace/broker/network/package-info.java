/**
 * The broker's network layer, independent of the Kafka protocol: a Netty server
 * ({@link io.millrace.broker.network.NetworkServer}) that cuts connections into size-prefixed
 * request frames, hands them to a {@link io.millrace.broker.network.RequestHandler} on a bounded
 * pool of request threads, and writes back {@link io.millrace.broker.network.ResponseSend}s made
 * of buffers and zero-copy file regions. One request per connection is in progress at a time,
 * so responses keep request order. Settings are in {@link io.millrace.broker.network.NetworkConfig},
 * metrics in a small JMX {@link io.millrace.broker.network.MetricsRegistry}; docs/network.md has
 * the threading and buffer-ownership rules in one place.
 */
package io.millrace.broker.network;
