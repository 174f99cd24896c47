package io.millrace.common.protocol.message;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.CompatibilityContract;
import io.millrace.common.protocol.Wire;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameters;

@RunWith(Parameterized.class)
public class AlterUserScramCredentialsRequestTest
    extends CompatibilityContract<AlterUserScramCredentialsRequestData, AlterUserScramCredentialsRequest> {

    @Parameters(name = "v{0}")
    public static List<Object[]> versions() {
        return Wire.versions(ApiKey.ALTER_USER_SCRAM_CREDENTIALS);
    }

    public AlterUserScramCredentialsRequestTest(short version) {
        super(version);
    }

    @Override
    protected AlterUserScramCredentialsRequestData kafkaSample() {
        return new AlterUserScramCredentialsRequestData()
            .setDeletions(List.of(new AlterUserScramCredentialsRequestData.ScramCredentialDeletion().setName("bob")
                .setMechanism((byte) 2)))
            .setUpsertions(List.of(new AlterUserScramCredentialsRequestData.ScramCredentialUpsertion().setName("alice")
                .setMechanism((byte) 1).setIterations(8192).setSalt(new byte[] {1, 2, 3}).setSaltedPassword(new byte[] {9, 8})));
    }

    @Override
    protected AlterUserScramCredentialsRequestData kafkaRead(ByteBuffer buffer) {
        return new AlterUserScramCredentialsRequestData(new ByteBufferAccessor(buffer), version);
    }

    @Override
    protected AlterUserScramCredentialsRequest millraceRead(ByteBuffer buffer) {
        return AlterUserScramCredentialsRequest.parse(buffer, version);
    }

    @Override
    protected AlterUserScramCredentialsRequest toMillrace(AlterUserScramCredentialsRequestData k) {
        return new AlterUserScramCredentialsRequest(
            k.deletions().stream().map(d -> new AlterUserScramCredentialsRequest.Deletion(d.name(), d.mechanism())).toList(),
            k.upsertions().stream().map(u -> new AlterUserScramCredentialsRequest.Upsertion(u.name(), u.mechanism(),
                u.iterations(), ByteBuffer.wrap(u.salt()), ByteBuffer.wrap(u.saltedPassword()))).toList());
    }
}
