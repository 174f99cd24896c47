package io.millrace.common.protocol.message;

import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.util.List;
import java.util.function.Function;

/**
 * One access control entry on one resource pattern, as the ACL APIs (DescribeAcls 29, CreateAcls 30,
 * DeleteAcls 31) carry it at every version Millrace reads (1-3, all of which have the pattern type).
 *
 * <pre>
 * resource_type => INT8     2 topic, 3 group, 4 cluster, 5 transactional id, 6 delegation token, 7 user; 1 any (filters)
 * resource_name => STRING   null in a filter matches any name
 * pattern_type  => INT8     3 literal, 4 prefixed; 1 any, 2 match (filters)
 * principal     => STRING   "User:alice"; null in a filter matches any
 * host          => STRING   "*" for every host; null in a filter matches any
 * operation     => INT8     2 all, 3 read, 4 write, ...; 1 any (filters)
 * permission    => INT8     2 deny, 3 allow; 1 any (filters)
 * </pre>
 *
 * A filter (DescribeAcls, DeleteAcls) uses the same fields with its strings nullable; a binding to
 * create has none null.
 */
public record AclBinding(byte resourceType, String resourceName, byte patternType, String principal, String host,
                         byte operation, byte permissionType) {

    /** The smallest encoding of one binding: four int8 and three empty or null strings. */
    static final int MIN_SIZE = 7;

    static AclBinding readFilter(ProtocolReader reader) {
        return new AclBinding(reader.readInt8(), reader.readNullableString(), reader.readInt8(),
            reader.readNullableString(), reader.readNullableString(), reader.readInt8(), reader.readInt8());
    }

    static AclBinding readBinding(ProtocolReader reader) {
        return new AclBinding(reader.readInt8(), reader.readString(), reader.readInt8(), reader.readString(),
            reader.readString(), reader.readInt8(), reader.readInt8());
    }

    /** An array of bindings or filters, each a struct of its own (with tagged fields in flexible versions). */
    static List<AclBinding> readStructs(ProtocolReader reader, Function<ProtocolReader, AclBinding> fields) {
        return reader.readArray(r -> {
            AclBinding binding = fields.apply(r);
            r.readTaggedFields();
            return binding;
        }, MIN_SIZE);
    }

    static void writeStructs(ProtocolWriter writer, List<AclBinding> bindings) {
        writer.writeArray(bindings, (w, binding) -> {
            binding.write(w);
            w.writeTaggedFields();
        });
    }

    /** Writes the fields; a null string is written as null, which only a filter may hold. */
    void write(ProtocolWriter writer) {
        writer.writeInt8(resourceType);
        writer.writeNullableString(resourceName);
        writer.writeInt8(patternType);
        writer.writeNullableString(principal);
        writer.writeNullableString(host);
        writer.writeInt8(operation);
        writer.writeInt8(permissionType);
    }
}
