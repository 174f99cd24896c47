package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.ApiMessage;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.types.ProtocolReader;
import io.millrace.common.protocol.types.ProtocolWriter;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * DeleteAcls response (api key 31): one result per filter, in the request's order.
 *
 * <pre>
 * DeleteAclsResponse => throttle_time_ms [filter_results] TAG_BUFFER
 *   throttle_time_ms => INT32
 *   filter_results => error_code error_message [matching_acls] TAG_BUFFER
 *     error_code    => INT16
 *     error_message => NULLABLE_STRING
 *     matching_acls => error_code error_message resource_type resource_name pattern_type principal
 *                      host operation permission_type TAG_BUFFER
 * </pre>
 *
 * A matching ACL's fields after its error are those of {@link AclBinding}.
 */
public record DeleteAclsResponse(int throttleTimeMs, List<FilterResult> filterResults) implements ApiMessage {

    private static final ApiKey API = ApiKey.DELETE_ACLS;

    /** What one filter removed, or why it removed nothing. */
    public record FilterResult(short errorCode, String errorMessage, List<MatchingAcl> matchingAcls) {

        public FilterResult {
            matchingAcls = List.copyOf(matchingAcls);
        }

        public Errors error() {
            return Errors.forCode(errorCode);
        }

        private static FilterResult read(ProtocolReader reader) {
            FilterResult result = new FilterResult(reader.readInt16(), reader.readNullableString(),
                reader.readArray(MatchingAcl::read, AclBinding.MIN_SIZE + 3));
            reader.readTaggedFields();
            return result;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            writer.writeArray(matchingAcls, (w, a) -> a.write(w));
            writer.writeTaggedFields();
        }
    }

    /** One ACL a filter matched, and whether removing it failed. */
    public record MatchingAcl(short errorCode, String errorMessage, AclBinding acl) {

        private static MatchingAcl read(ProtocolReader reader) {
            MatchingAcl matching = new MatchingAcl(reader.readInt16(), reader.readNullableString(),
                AclBinding.readBinding(reader));
            reader.readTaggedFields();
            return matching;
        }

        private void write(ProtocolWriter writer) {
            writer.writeInt16(errorCode);
            writer.writeNullableString(errorMessage);
            acl.write(writer);
            writer.writeTaggedFields();
        }
    }

    public DeleteAclsResponse {
        filterResults = List.copyOf(filterResults);
    }

    @Override
    public ApiKey apiKey() {
        return API;
    }

    public static DeleteAclsResponse parse(ByteBuffer buffer, short version) {
        API.checkVersion(version);
        ProtocolReader reader = new ProtocolReader(buffer, API.isFlexible(version));
        DeleteAclsResponse response = new DeleteAclsResponse(reader.readInt32(), reader.readArray(FilterResult::read, 4));
        reader.readTaggedFields();
        return response;
    }

    @Override
    public void write(ProtocolWriter writer, short version) {
        API.checkVersion(version);
        writer.writeInt32(throttleTimeMs);
        writer.writeArray(filterResults, (w, r) -> r.write(w));
        writer.writeTaggedFields();
    }
}
