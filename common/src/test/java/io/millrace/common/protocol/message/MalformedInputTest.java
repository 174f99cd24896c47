package io.millrace.common.protocol.message;

import static org.junit.Assert.assertTrue;

import io.millrace.common.protocol.ApiKey;
import io.millrace.common.protocol.InvalidRequestException;
import io.millrace.common.protocol.RequestHeader;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.Test;

/**
 * Untrusted bytes of any shape, at every api and version, in requests and responses: parsing
 * either succeeds or raises {@link InvalidRequestException}, and never allocates much more than
 * the input could justify, however large the lengths and counts it claims.
 */
public class MalformedInputTest {

    /** Per parse of a buffer of at most a few hundred bytes: room for the exception and small lists. */
    private static final long ALLOCATION_BOUND = 512 * 1024;

    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private final Random random = new Random(20_240_611L);

    private static void forEveryParser(Consumer<java.util.function.Function<ByteBuffer, Object>> check) {
        for (ApiKey api : ApiKey.values()) {
            for (short v = api.minVersion(); v <= api.maxVersion(); v++) {
                short version = v;
                check.accept(b -> ApiMessages.parseRequest(api, b, version));
                check.accept(b -> ApiMessages.parseResponse(api, b, version));
            }
        }
        check.accept(RequestHeader::parse);
    }

    private static void parseBounded(java.util.function.Function<ByteBuffer, Object> parser, ByteBuffer input) {
        long before = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId());
        try {
            parser.apply(input);
        } catch (InvalidRequestException expected) {
            // the one exception malformed input may raise
        }
        long allocated = THREADS.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
        assertTrue("allocated " + allocated + " bytes for a " + input.capacity() + "-byte input", allocated < ALLOCATION_BOUND);
    }

    @Test
    public void randomBytesParseOrRaiseOnlyInvalidRequest() {
        forEveryParser(parser -> {
            for (int i = 0; i < 100; i++) {
                byte[] bytes = new byte[random.nextInt(200)];
                random.nextBytes(bytes);
                parseBounded(parser, ByteBuffer.wrap(bytes));
            }
        });
    }

    @Test
    public void hugeClaimedLengthsAndCountsNeitherOverflowNorAllocate() {
        int[] fills = {0x7f, 0xff, 0x80, 0xfe, 0x00, 0x01};
        forEveryParser(parser -> {
            for (int fill : fills) {
                for (int length : new int[] {1, 7, 64, 300}) {
                    byte[] bytes = new byte[length];
                    java.util.Arrays.fill(bytes, (byte) fill);
                    parseBounded(parser, ByteBuffer.wrap(bytes));
                }
            }
        });
    }

    @Test
    public void aCountOfTwoBillionInsideAValidPrefixIsRejectedCheaply() {
        // Produce v3: null transactional id, acks, timeout, then a topic array claiming 2^31 - 1 topics
        ByteBuffer bytes = ByteBuffer.allocate(16).putShort((short) -1).putShort((short) 1).putInt(1000)
            .putInt(Integer.MAX_VALUE).putInt(0).flip();
        parseBounded(b -> ProduceRequest.parse(b, (short) 3), bytes);
        // the same through the compact encoding of Produce v9
        ByteBuffer compact = ByteBuffer.wrap(new byte[] {0, 0, 1, 0, 0, 3, (byte) 0xe8, (byte) 0xff, (byte) 0xff,
            (byte) 0xff, (byte) 0xff, 0x0f, 0});
        parseBounded(b -> ProduceRequest.parse(b, (short) 9), compact);
    }

    @Test
    public void hugeGroupCountsAndLengthsInsideAValidPrefixAreRejectedCheaply() {
        // JoinGroup v5: group "g", timeouts, member "", no instance id, type "consumer", then 2^31 - 1 protocols
        ByteBuffer join = ByteBuffer.allocate(40).putShort((short) 1).put((byte) 'g').putInt(10_000).putInt(60_000)
            .putShort((short) 0).putShort((short) -1).putShort((short) 8).put("consumer".getBytes())
            .putInt(Integer.MAX_VALUE).putInt(0).flip();
        parseBounded(b -> JoinGroupRequest.parse(b, (short) 5), join);
        // SyncGroup v3: one assignment whose bytes claim 2^31 - 1 in length
        ByteBuffer sync = ByteBuffer.allocate(32).putShort((short) 1).put((byte) 'g').putInt(1).putShort((short) 1)
            .put((byte) 'm').putShort((short) -1).putInt(1).putShort((short) 1).put((byte) 'm')
            .putInt(Integer.MAX_VALUE).put(new byte[4]).flip();
        parseBounded(b -> SyncGroupRequest.parse(b, (short) 3), sync);
        // OffsetFetch v8 (compact): 2^31 - 1 groups
        ByteBuffer fetch = ByteBuffer.wrap(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x07, 0, 0});
        parseBounded(b -> OffsetFetchRequest.parse(b, (short) 8), fetch);
    }
}
