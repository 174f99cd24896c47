package io.millrace.broker.group;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.message.ConsumerGroupHeartbeatRequest;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.Test;

/** The coordinator's consumer-protocol groups: each change stored once, a failed store tried again. */
public class ConsumerGroupsTest {

    private final List<GroupMetadataRecord> stored = new ArrayList<>();
    private boolean failNext = true;
    private final ConsumerGroups groups = new ConsumerGroups(GroupConfig.DEFAULT, (id, record) -> {
        stored.add(record);
        if (failNext) {
            failNext = false;
            return CompletableFuture.failedFuture(new IllegalStateException("not enough replicas"));
        }
        return CompletableFuture.completedFuture(null);
    }, () -> 1_000L);
    private final TopicCatalog catalog = new TopicCatalog() {
        @Override
        public Collection<String> names() {
            return List.of("clicks");
        }

        @Override
        public int partitionCount(String topic) {
            return topic.equals("clicks") ? 2 : 0;
        }
    };

    private ConsumerGroup.Answer heartbeat(String member, int epoch) {
        return groups.call("g", g -> g.heartbeat(new ConsumerGroupHeartbeatRequest("g", member, epoch, null, null, 60_000,
            epoch == 0 ? List.of("clicks") : null, null, null, null), epoch == 0 ? Set.of() : null, "client", "/127.0.0.1",
            catalog, 1_000L));
    }

    @Test
    public void aStoreThatFailedIsTriedAgainAtTheNextHeartbeatAndAnUnchangedGroupIsNotStoredTwice() {
        ConsumerGroup.Answer joined = heartbeat("a", 0);
        assertEquals(1, stored.size());
        heartbeat("a", joined.epoch());
        assertEquals("the failed store is tried again", 2, stored.size());
        assertEquals(stored.get(0).members(), stored.get(1).members());
        heartbeat("a", joined.epoch());
        assertEquals("nothing changed since the stored one", 2, stored.size());
        groups.call("g", g -> g.heartbeat(new ConsumerGroupHeartbeatRequest("g", "a", -1, null, null, -1, null, null, null,
            null), null, "client", "/127.0.0.1", catalog, 1_000L));
        assertEquals(3, stored.size());
        assertNull("a group left empty gets a tombstone", stored.get(2));
        assertTrue(groups.active().isEmpty());
    }
}
