package io.millrace.broker.group;

import io.millrace.common.protocol.Errors;
import java.util.HashMap;
import java.util.Map;

/**
 * The static members of a group (Kafka's {@code group.instance.id}): which member id each instance
 * id holds now. A restarted static member takes over its instance's place under a new member id
 * without a rebalance; requests still carrying the old member id are fenced. Guarded by the group's
 * lock.
 */
final class StaticMembers {

    private final Map<String, String> memberByInstance = new HashMap<>();

    String memberOf(String instanceId) {
        return memberByInstance.get(instanceId);
    }

    void put(String instanceId, String memberId) {
        memberByInstance.put(instanceId, memberId);
    }

    /** Forgets {@code memberId} if it still holds {@code instanceId}. */
    void removeIfHeld(String instanceId, String memberId) {
        if (instanceId != null) {
            memberByInstance.remove(instanceId, memberId);
        }
    }

    void clear() {
        memberByInstance.clear();
    }

    /**
     * NONE for a dynamic member (no instance id) or one holding its instance id, FENCED_INSTANCE_ID
     * when another member id holds it now, UNKNOWN_MEMBER_ID when nobody does.
     */
    Errors check(String instanceId, String memberId) {
        if (instanceId == null) {
            return Errors.NONE;
        }
        String holder = memberByInstance.get(instanceId);
        if (holder == null) {
            return Errors.UNKNOWN_MEMBER_ID;
        }
        return holder.equals(memberId) ? Errors.NONE : Errors.FENCED_INSTANCE_ID;
    }
}
