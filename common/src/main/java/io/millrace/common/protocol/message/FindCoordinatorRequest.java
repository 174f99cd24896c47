package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * FindCoordinator request (api key 10): which broker coordinates a group (or a transactional id).
 *
 * <pre>
 * FindCoordinatorRequest v0-3 => key key_type TAG_BUFFER
 * FindCoordinatorRequest v4+  => key_type [coordinator_keys] TAG_BUFFER
 *   key              => STRING   (v0-3: the group id)
 *   key_type         => INT8     (v1+: 0 group, 1 transaction; default 0)
 *   coordinator_keys => STRING   (v4+: several keys in one request)
 * </pre>
 *
 * Version 1 adds the key type. Version 2 has the same layout. Version 3 is flexible. Version 4
 * replaces the single key with a batch of keys, answered one coordinator per key. Versions 5 and 6
 * have the same layout (new error codes; 6 adds share-group keys).
 *
 * <p>A version carries either {@link #key()} or {@link #coordinatorKeys()}; the other is left at
 * Kafka's default ("" or an empty list) and is not written.
 */
public record FindCoordinatorRequest(String key, byte keyType, List<String> coordinatorKeys) implements ApiMessage {

    private static final ApiKey API = ApiKey.FIND_COORDINATOR;

    /** The first version that batches keys. */
    public static final short FIRST_BATCHED_VERSION = 4;

    public static final byte GROUP = 0;
    public static final byte TRANSACTION = 1;

    public FindCoordinatorRequest {
        coordinatorKeys = List.copyOf(coordinatorKeys);
    }

    /** A request for one group's coordinator, in the form of versions 0 to 3. */
    public static FindCoordinatorRequest forGroup(String groupId) {
        return new FindCoordinatorRequest(groupId, GROUP, List.of());
    }

    /** A request for several groups' coordinators, in the form of versions 4 and above. */
    public static FindCoordinatorRequest forGroups(List<String> groupIds) {
        return new FindCoordinatorRequest("", GROUP, groupIds);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static FindCoordinatorRequest parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        String key = version < FIRST_BATCHED_VERSION ? reader.readString() : "";
        byte keyType = version >= 1 ? reader.readInt8() : GROUP;
        List<String> coordinatorKeys = version >= FIRST_BATCHED_VERSION ? reader.readStringArray() : List.of();
        reader.readTaggedFields();
        return new FindCoordinatorRequest(key, keyType, coordinatorKeys);
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        if (version < FIRST_BATCHED_VERSION) {
            writer.writeString(key);
        }
        if (version >= 1) {
            writer.writeInt8(keyType);
        }
        if (version >= FIRST_BATCHED_VERSION) {
            writer.writeStringArray(coordinatorKeys);
        }
        writer.writeTaggedFields();
    }
}
