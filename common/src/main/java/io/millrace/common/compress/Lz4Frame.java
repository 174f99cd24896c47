package io.millrace.common.compress;

import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * Facts of the LZ4 frame format (lz4 frame spec v1.6) as Kafka writes it for record batch v2.
 *
 * <pre>
 * Frame =&gt;
 *   Magic           uint32 LE  0x184D2204
 *   FLG             int8       bits 7-6 version (01), 5 block independence, 4 block checksum,
 *                              3 content size, 2 content checksum, 1 reserved, 0 dictionary id
 *   BD              int8       bits 6-4 block maximum size id (4 = 64 KB, 5 = 256 KB, 6 = 1 MB, 7 = 4 MB)
 *   ContentSize     uint64 LE  only when FLG bit 3 is set
 *   HC              int8       (xxhash32(FLG .. end of ContentSize, seed 0) &gt;&gt; 8) &amp; 0xFF
 *   Blocks          [BlockSize uint32 LE (bit 31 set: stored uncompressed), Data,
 *                    BlockChecksum uint32 LE = xxhash32(Data) when FLG bit 4 is set]
 *   EndMark         uint32 = 0
 *   ContentChecksum uint32 LE  only when FLG bit 2 is set
 * </pre>
 *
 * Kafka writes FLG {@code 0x60} (version 1, independent blocks, no checksums, no content size)
 * and BD {@code 0x40} (64 KB blocks). Magic 0 batches used a broken HC that also covered the magic;
 * record batch v2 always uses the correct one, so only that is supported here.
 */
final class Lz4Frame {

    static final int MAGIC = 0x184D2204;
    static final int MAGIC_LENGTH = 4;
    /** Magic, FLG, BD and HC: the smallest descriptor. */
    static final int MIN_HEADER_LENGTH = MAGIC_LENGTH + 3;
    static final int CONTENT_SIZE_LENGTH = 8;
    static final int INT_LENGTH = 4;
    static final int STORED_BLOCK_FLAG = 0x80000000;

    static final int VERSION = 1;
    static final int FLG_VERSION_SHIFT = 6;
    static final int FLG_BLOCK_INDEPENDENCE = 1 << 5;
    static final int FLG_BLOCK_CHECKSUM = 1 << 4;
    static final int FLG_CONTENT_SIZE = 1 << 3;
    static final int FLG_CONTENT_CHECKSUM = 1 << 2;
    static final int FLG_RESERVED = 0x03;
    static final int BD_SIZE_ID_SHIFT = 4;
    static final int BD_SIZE_ID_MASK = 0x07;
    static final int BD_RESERVED = 0x8F;

    static final int BLOCK_SIZE_ID_64KB = 4;
    static final int MIN_BLOCK_SIZE_ID = 4;
    static final int MAX_BLOCK_SIZE_ID = 7;

    /** Kafka's {@code compression.lz4.level} default; at this level Kafka uses the fast compressor. */
    static final int DEFAULT_LEVEL = 9;
    static final int MIN_LEVEL = 1;
    static final int MAX_LEVEL = 17;

    static final XXHash32 XXHASH = XXHashFactory.fastestInstance().hash32();
    static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();

    private Lz4Frame() {
    }

    /** FLG as Kafka writes it: version 1, independent blocks, nothing optional. */
    static byte kafkaFlg() {
        return (byte) (VERSION << FLG_VERSION_SHIFT | FLG_BLOCK_INDEPENDENCE);
    }

    static byte bd(int blockSizeId) {
        return (byte) (blockSizeId << BD_SIZE_ID_SHIFT);
    }

    /** 64 KB for id 4, times four for each step up to 4 MB for id 7. */
    static int blockMaximumSize(int blockSizeId) {
        return 1 << (2 * blockSizeId + 8);
    }

    /** The second byte of the descriptor's xxhash32, which HC stores. */
    static byte headerChecksum(byte[] descriptor, int offset, int length) {
        return (byte) ((XXHASH.hash(descriptor, offset, length, 0) >> 8) & 0xFF);
    }

    /**
     * The compressor Kafka picks: at the default level the fast one (Kafka's
     * {@code Lz4BlockOutputStream} does so), at any other level the high-compression one.
     */
    static LZ4Compressor compressor(int level) {
        LZ4Factory factory = LZ4Factory.fastestInstance();
        return level == DEFAULT_LEVEL ? factory.fastCompressor() : factory.highCompressor(level);
    }
}
