package io.millrace.broker.group;

import java.util.concurrent.CompletableFuture;

/**
 * Where a classic group's generations are kept, so that the broker taking the group over carries
 * its members and generation on instead of making them all join again.
 */
interface GroupStore {

    /** Keeps nothing: the group lives in memory only. */
    GroupStore NONE = (groupId, record) -> CompletableFuture.completedFuture(null);

    /**
     * Keeps {@code record} as the group's generation, or records that it has none when null;
     * completes once kept, or fails with why not.
     */
    CompletableFuture<Void> store(String groupId, GroupMetadataRecord record);
}
