package io.millrace.common.serialization;

import static java.nio.charset.StandardCharsets.UTF_8;

/** UTF-8 bytes of a string; null stays null. */
public final class StringSerializer implements Serializer<String> {

    @Override
    public byte[] serialize(String topic, String data) {
        return data == null ? null : data.getBytes(UTF_8);
    }
}
