/**
 * Replication: each local replica of a partition as a {@code Partition}
 * (leader or follower, the in-sync replicas and the high watermark), the fetcher threads that copy a
 * leader's log to its followers over the Kafka protocol, and the replica manager that applies the
 * leadership ZooKeeper holds. A leader answers acks=all produces once every in-sync replica has the
 * batch; consumers read below the high watermark only. The ISR is written by the leader alone, with
 * conditional updates of the partition's state znode.
 */
package io.millrace.broker.replica;
