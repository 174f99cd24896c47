/**
 * The broker's membership in a Millrace cluster, kept in ZooKeeper through Apache Curator's
 * recipes: the ephemeral broker registry, the topic → partition → broker assignment, per-topic
 * configuration overrides, the controller (a Curator {@code LeaderLatch}) that turns topic
 * creation and deletion requests into assignments, and a {@code CuratorCache} view of all of it
 * that every broker answers metadata lookups from. {@link io.millrace.broker.cluster.ZkCluster}
 * is the entry point; {@link io.millrace.broker.cluster.ClusterPaths} documents the znode tree,
 * as does {@code docs/zookeeper.md}.
 */
package io.millrace.broker.cluster;
