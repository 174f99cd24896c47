package io.millrace.broker.cluster;

/**
 * Told of every change to this broker's view of the cluster, in order, on the cache's
 * notification thread (one per broker). Listeners should be quick; long work belongs on the
 * listener's own executor, or later notifications wait behind it.
 */
@FunctionalInterface
public interface MetadataListener {

    void onMetadataChange(ClusterSnapshot previous, ClusterSnapshot current);
}
