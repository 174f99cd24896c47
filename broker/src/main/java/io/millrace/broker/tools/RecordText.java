package io.millrace.broker.tools;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HexFormat;

/** How the tools show keys, values and timestamps: UTF-8 text when it is printable, else hex. Stateless. */
final class RecordText {

    private RecordText() {
    }

    /** {@code null}, the bytes as text if they are valid UTF-8 without control characters, else {@code 0x<hex>}. */
    static String bytes(ByteBuffer bytes) {
        if (bytes == null) {
            return "null";
        }
        String text = utf8(bytes.duplicate());
        if (text != null && text.codePoints().noneMatch(Character::isISOControl)) {
            return text;
        }
        byte[] raw = new byte[bytes.remaining()];
        bytes.duplicate().get(raw);
        return "0x" + HexFormat.of().formatHex(raw);
    }

    private static String utf8(ByteBuffer bytes) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(bytes)
                .toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** Epoch milliseconds as ISO-8601 UTC, or {@code none} for Kafka's -1. */
    static String timestamp(long ms) {
        return ms < 0 ? "none" : Instant.ofEpochMilli(ms).toString();
    }
}
