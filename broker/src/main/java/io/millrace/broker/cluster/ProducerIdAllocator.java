package io.millrace.broker.cluster;

import io.millrace.common.errors.MillraceException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Allocates blocks of producer ids through {@link ClusterPaths#PRODUCER_ID_BLOCK}, Kafka's
 * ZooKeeper-era scheme: read the last block handed out and its znode version, then write the next
 * block with a {@code setData} at that version (or create the znode, for the very first block).
 * When another broker wrote in between, the write fails on the version (or on the existing node)
 * and the allocation starts over from a fresh read. So every block begins after the last one
 * written by anyone, whatever the broker and however often it restarted. Thread-safe.
 */
final class ProducerIdAllocator {

    /** Ids per block, as in Kafka. */
    static final long BLOCK_SIZE = 1000;

    private final CuratorFramework client;
    private final int brokerId;

    ProducerIdAllocator(CuratorFramework client, int brokerId) {
        this.client = client;
        this.brokerId = brokerId;
    }

    ProducerIdBlock allocate() throws Exception {
        while (true) {
            Stat stat = new Stat();
            byte[] data;
            try {
                data = client.getData().storingStatIn(stat).forPath(ClusterPaths.PRODUCER_ID_BLOCK);
            } catch (KeeperException.NoNodeException e) {
                data = null;
            }
            // An empty znode (Kafka creates one so) means no block was handed out yet.
            long first = data == null || data.length == 0 ? 0 : ClusterJson.parseProducerIdBlock(data).lastId() + 1;
            if (first > Long.MAX_VALUE - BLOCK_SIZE) {
                throw new MillraceException("Producer ids are exhausted: the last block handed out ends at " + (first - 1));
            }
            ProducerIdBlock block = new ProducerIdBlock(brokerId, first, first + BLOCK_SIZE - 1);
            byte[] json = ClusterJson.producerIdBlock(block);
            try {
                if (data == null) {
                    client.create().forPath(ClusterPaths.PRODUCER_ID_BLOCK, json);
                } else {
                    client.setData().withVersion(stat.getVersion()).forPath(ClusterPaths.PRODUCER_ID_BLOCK, json);
                }
                return block;
            } catch (KeeperException.BadVersionException | KeeperException.NodeExistsException
                     | KeeperException.NoNodeException e) {
                // Another broker took a block in between (or the znode was deleted): read again.
            }
        }
    }
}
