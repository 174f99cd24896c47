/**
 * The machinery behind the consumers' public API: the paper's rebalance (Algorithm 1) and the
 * ZooKeeper registries it works on, the fetcher threads (one per broker) that fill the streams'
 * bounded queues, and the decoding of fetched chunks into records. Nothing here is a stable API.
 */
package io.millrace.consumer.internals;
