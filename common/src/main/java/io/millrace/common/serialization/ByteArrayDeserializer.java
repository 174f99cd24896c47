package io.millrace.common.serialization;

/** The bytes as they are, not copied. */
public final class ByteArrayDeserializer implements Deserializer<byte[]> {

    @Override
    public byte[] deserialize(String topic, byte[] data) {
        return data;
    }
}
