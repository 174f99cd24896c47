package io.millrace.common.protocol.message;

import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.util.List;

/**
 * One part of the entity a client quota applies to, as the quota APIs (DescribeClientQuotas 48,
 * AlterClientQuotas 49) carry it: an entity is a list of these, e.g. a user and a client id.
 *
 * <pre>
 * EntityData => entity_type entity_name TAG_BUFFER
 *   entity_type => STRING            "user", "client-id" or "ip"
 *   entity_name => NULLABLE_STRING   null for the entity type's default quota
 * </pre>
 */
public record ClientQuotaEntity(String entityType, String entityName) {

    static List<ClientQuotaEntity> readList(ProtocolReader reader) {
        return reader.readArray(r -> {
            ClientQuotaEntity entity = new ClientQuotaEntity(r.readString(), r.readNullableString());
            r.readTaggedFields();
            return entity;
        }, 2);
    }

    static void writeList(ProtocolWriter writer, List<ClientQuotaEntity> entities) {
        writer.writeArray(entities, (w, e) -> {
            w.writeString(e.entityType);
            w.writeNullableString(e.entityName);
            w.writeTaggedFields();
        });
    }
}
