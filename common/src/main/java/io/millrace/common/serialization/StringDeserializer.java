package io.millrace.common.serialization;

import static java.nio.charset.StandardCharsets.UTF_8;

/** A string from UTF-8 bytes; null stays null. */
public final class StringDeserializer implements Deserializer<String> {

    @Override
    public String deserialize(String topic, byte[] data) {
        return data == null ? null : new String(data, UTF_8);
    }
}
