package io.millrace.broker.log;

import io.millrace.broker.log.AbortedTransactions.Aborted;
import io.millrace.broker.log.ProducerStateEntry.BatchMetadata;
import java.io.IOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * A {@code <offset>.snapshot} file: every producer a partition remembered when its log ended at
 * {@code offset} (the file holds the state of the batches below that offset). Big-endian:
 *
 * <pre>
 * Snapshot      => Version Crc Offset ProducerCount [Producer] AbortedCount [Aborted]
 *   Version       => int16, 2 (1: without the transaction fields and the aborted transactions)
 *   Crc           => uint32, CRC-32C of every byte after this field
 *   Offset        => int64, the log end offset the state belongs to (also in the name)
 *   ProducerCount => int32
 * Producer      => ProducerId Epoch LastSeenMs CoordinatorEpoch CurrentTxnFirstOffset BatchCount [Batch]
 *   ProducerId    => int64
 *   Epoch         => int16
 *   LastSeenMs    => int64, broker clock
 *   CoordinatorEpoch      => int32, -1 for none (version 2)
 *   CurrentTxnFirstOffset => int64, -1 when no transaction is open (version 2)
 *   BatchCount    => int32, at most 5, oldest first
 * Batch         => FirstSeq LastSeq FirstOffset LastOffset Timestamp
 *   FirstSeq      => int32
 *   LastSeq       => int32
 *   FirstOffset   => int64
 *   LastOffset    => int64
 *   Timestamp     => int64, the batch's MaxTimestamp as stored
 * AbortedCount  => int32 (version 2)
 * Aborted       => ProducerId FirstOffset LastOffset, each int64: a transaction that ended aborted (version 2)
 * </pre>
 *
 * For example an empty state at offset 0 is the 22 bytes {@code 00 02 | crc | 00 x8 | 00 00 00 00 | 00 00 00 00}.
 * Version 1 files, written before transactions, are still read.
 * A file is written to {@code .tmp}, fsynced and renamed, so a crash leaves the old file or the new
 * one; a file that fails its CRC or ends early anyway reads as absent, and the state is rebuilt
 * from the log. Stateless.
 */
final class ProducerSnapshotFile {

    static final short VERSION = 2;
    private static final short VERSION_WITHOUT_TRANSACTIONS = 1;
    private static final int CRC_OFFSET = Short.BYTES;
    private static final int BODY_OFFSET = CRC_OFFSET + Integer.BYTES;
    private static final int BATCH_SIZE = 2 * Integer.BYTES + 3 * Long.BYTES;
    private static final int PRODUCER_HEADER_SIZE = Long.BYTES + Short.BYTES + Long.BYTES + Integer.BYTES + Long.BYTES
        + Integer.BYTES;
    private static final int ABORTED_SIZE = 3 * Long.BYTES;

    private ProducerSnapshotFile() {
    }

    /** What a snapshot holds: the producers and the aborted transactions. */
    record Contents(List<ProducerStateEntry> producers, List<Aborted> aborted) {
    }

    /** Writes the snapshot of {@code producers} at {@code offset} into {@code dir}, replacing any of that offset. */
    static Path write(Path dir, long offset, Collection<ProducerStateEntry> producers, List<Aborted> aborted)
        throws IOException {
        ByteBuffer buffer = serialize(offset, producers, aborted);
        Path file = LogFileNames.producerSnapshotFile(dir, offset);
        Path tmp = file.resolveSibling(file.getFileName() + LogFileNames.TMP_SUFFIX);
        try (FileChannel channel = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buffer.hasRemaining()) {
                channel.write(buffer);
            }
            channel.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        return file;
    }

    static ByteBuffer serialize(long offset, Collection<ProducerStateEntry> producers, List<Aborted> aborted) {
        int size = BODY_OFFSET + Long.BYTES + Integer.BYTES + Integer.BYTES + aborted.size() * ABORTED_SIZE;
        for (ProducerStateEntry entry : producers) {
            size += PRODUCER_HEADER_SIZE + entry.batches().size() * BATCH_SIZE;
        }
        ByteBuffer buffer = ByteBuffer.allocate(size);
        buffer.putShort(VERSION).putInt(0).putLong(offset).putInt(producers.size());
        for (ProducerStateEntry entry : producers) {
            buffer.putLong(entry.producerId()).putShort(entry.epoch()).putLong(entry.lastSeenMs())
                .putInt(entry.coordinatorEpoch()).putLong(entry.currentTxnFirstOffset()).putInt(entry.batches().size());
            for (BatchMetadata batch : entry.batches()) {
                buffer.putInt(batch.firstSeq()).putInt(batch.lastSeq()).putLong(batch.firstOffset())
                    .putLong(batch.lastOffset()).putLong(batch.timestamp());
            }
        }
        buffer.putInt(aborted.size());
        for (Aborted entry : aborted) {
            buffer.putLong(entry.producerId()).putLong(entry.firstOffset()).putLong(entry.lastOffset());
        }
        buffer.putInt(CRC_OFFSET, (int) crc(buffer.array(), size));
        return buffer.flip();
    }

    /** The producers in {@code file}, or empty if its bytes are damaged, torn or of another version. */
    static Optional<Contents> read(Path file) throws IOException {
        return parse(ByteBuffer.wrap(Files.readAllBytes(file)));
    }

    static Optional<Contents> parse(ByteBuffer buffer) {
        try {
            short version = buffer.getShort();
            boolean withTransactions = version == VERSION;
            if ((!withTransactions && version != VERSION_WITHOUT_TRANSACTIONS)
                || (buffer.getInt() & 0xFFFFFFFFL) != crc(buffer.array(), buffer.limit())) {
                return Optional.empty();
            }
            buffer.getLong();
            int count = buffer.getInt();
            List<ProducerStateEntry> producers = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                producers.add(readProducer(buffer, withTransactions));
            }
            List<Aborted> aborted = new ArrayList<>();
            int abortedCount = withTransactions ? buffer.getInt() : 0;
            for (int i = 0; i < abortedCount; i++) {
                aborted.add(new Aborted(buffer.getLong(), buffer.getLong(), buffer.getLong()));
            }
            return buffer.hasRemaining() ? Optional.empty() : Optional.of(new Contents(producers, aborted));
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static ProducerStateEntry readProducer(ByteBuffer buffer, boolean withTransactions) {
        long producerId = buffer.getLong();
        short epoch = buffer.getShort();
        long lastSeenMs = buffer.getLong();
        int coordinatorEpoch = withTransactions ? buffer.getInt() : -1;
        long currentTxnFirstOffset = withTransactions ? buffer.getLong() : ProducerStateEntry.NO_TXN;
        int batchCount = buffer.getInt();
        if (batchCount < 0 || batchCount > ProducerStateEntry.BATCHES_RETAINED) {
            throw new IllegalArgumentException("batch count " + batchCount);
        }
        List<BatchMetadata> batches = new ArrayList<>(batchCount);
        for (int i = 0; i < batchCount; i++) {
            batches.add(new BatchMetadata(buffer.getInt(), buffer.getInt(), buffer.getLong(), buffer.getLong(),
                buffer.getLong()));
        }
        return new ProducerStateEntry(producerId, epoch, batches, lastSeenMs, coordinatorEpoch, currentTxnFirstOffset);
    }

    private static long crc(byte[] bytes, int end) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, BODY_OFFSET, Math.max(0, end - BODY_OFFSET));
        return crc.getValue();
    }

    /** The snapshot files in {@code dir} by offset, ascending. */
    static TreeMap<Long, Path> list(Path dir) throws IOException {
        TreeMap<Long, Path> snapshots = new TreeMap<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, "*" + LogFileNames.PRODUCER_SNAPSHOT_SUFFIX)) {
            for (Path file : files) {
                OptionalLong offset = LogFileNames.baseOffset(file, LogFileNames.PRODUCER_SNAPSHOT_SUFFIX);
                offset.ifPresent(o -> snapshots.put(o, file));
            }
        }
        return snapshots;
    }
}
