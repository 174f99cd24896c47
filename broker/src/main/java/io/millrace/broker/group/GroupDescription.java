package io.millrace.broker.group;

import java.nio.ByteBuffer;
import java.util.List;

/** A copy of one classic group's state and members, as DescribeGroups reports them. */
record GroupDescription(String groupId, GroupState state, String protocolType, String protocolName,
                        List<Member> members) {

    GroupDescription {
        members = List.copyOf(members);
    }

    /** One member; metadata and assignment are empty unless the group is Stable. */
    record Member(String memberId, String groupInstanceId, String clientId, String clientHost, ByteBuffer metadata,
                  ByteBuffer assignment) {
    }
}
