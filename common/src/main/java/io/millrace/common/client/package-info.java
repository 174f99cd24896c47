/**
 * The client end of the Kafka protocol, shared by the producer, the consumers and the tools:
 * {@link io.millrace.common.client.NetworkClient} (connections, version negotiation, correlation,
 * timeouts), {@link io.millrace.common.client.Metadata} and {@link io.millrace.common.client.Cluster}
 * (who leads which partition), {@link io.millrace.common.client.BootstrapServers} (where to start)
 * and the settings they share. No server code lives here.
 */
package io.millrace.common.client;
