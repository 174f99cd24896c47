package io.millrace.producer.internals;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import io.millrace.common.TopicPartition;
import io.millrace.common.protocol.Errors;
import io.millrace.common.record.CompressionType;
import io.millrace.common.record.Header;
import io.millrace.common.record.RecordBatch;
import java.nio.ByteBuffer;
import org.junit.Test;

/** The idempotent producer's numbering of batches, and what it does with the broker's refusals, without a broker. */
public class IdempotenceManagerTest {

    private static final TopicPartition TP0 = new TopicPartition("t", 0);
    private static final TopicPartition TP1 = new TopicPartition("t", 1);
    private static final short OUT_OF_ORDER = Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code();

    private final IdempotenceManager idempotence = new IdempotenceManager();
    private long created;

    private ProducerBatch batch(TopicPartition tp, int records) {
        ProducerBatch batch = new ProducerBatch(tp, ByteBuffer.allocate(4096), CompressionType.NONE, 4096, 0L, ++created);
        for (int i = 0; i < records; i++) {
            batch.tryAppend(1_700_000_000_000L, null, ("v" + i).getBytes(), new Header[0], null);
        }
        return batch;
    }

    /** What the accumulator does with a batch at the head of its queue when the sender drains it. */
    private ProducerBatch drain(ProducerBatch batch) {
        assertTrue(batch + " may be drained", idempotence.mayDrain(batch));
        idempotence.numberIfNew(batch);
        batch.close();
        return batch;
    }

    private static RecordBatch header(ProducerBatch batch) {
        RecordBatch header = RecordBatch.wrap(batch.records());
        assertTrue("valid CRC", header.isValid());
        return header;
    }

    private static void assertHeader(ProducerBatch batch, long producerId, int epoch, int baseSequence) {
        RecordBatch header = header(batch);
        assertEquals(producerId, header.producerId());
        assertEquals(epoch, header.producerEpoch());
        assertEquals(baseSequence, header.baseSequence());
    }

    @Test
    public void nothingIsDrainedBeforeTheProducerIdArrives() {
        ProducerBatch batch = batch(TP0, 1);
        assertFalse(idempotence.mayDrain(batch));
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        assertTrue(idempotence.mayDrain(batch));
    }

    @Test
    public void eachPartitionNumbersItsRecordsFromZeroInTheBatchHeaders() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch first = drain(batch(TP0, 3));
        ProducerBatch second = drain(batch(TP0, 2));
        ProducerBatch other = drain(batch(TP1, 4));
        assertHeader(first, 7L, 0, 0);
        assertHeader(second, 7L, 0, 3);
        assertHeader(other, 7L, 0, 0);
        assertEquals(4, second.lastSequence());
        assertEquals(5, idempotence.sequences(TP0).nextSequence());
    }

    @Test
    public void aRetriedBatchKeepsItsSequenceAndWaitsUntilEveryLowerOneIsComplete() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch first = drain(batch(TP0, 3));
        ProducerBatch second = drain(batch(TP0, 2));
        // the second's request failed first: it must not overtake the first, still in flight
        assertFalse(idempotence.mayDrain(second));
        idempotence.onAcknowledged(first, 100L);
        ProducerBatch resent = drain(second);
        assertHeader(resent, 7L, 0, 3);
        assertEquals(2, idempotence.sequences(TP0).lastAckedSequence());
        assertEquals(102L, idempotence.sequences(TP0).lastAckedOffset());
    }

    @Test
    public void outOfOrderForABatchThatIsNotTheNextOneIsRetriedAsItIs() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        drain(batch(TP0, 3));
        ProducerBatch second = drain(batch(TP0, 2));
        // the first failed on its way and is retried; the broker refuses the second for the gap
        assertTrue(idempotence.canRetry(second, OUT_OF_ORDER, 0L, false));
        idempotence.bumpEpochIfNeeded();
        assertEquals(0, idempotence.producerIdAndEpoch().epoch());
        assertEquals(3, second.baseSequence());
    }

    @Test
    public void outOfOrderForTheNextBatchRaisesTheEpochAndNumbersTheIncompleteBatchesFromZero() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch first = drain(batch(TP0, 3));
        ProducerBatch second = drain(batch(TP0, 2));
        ProducerBatch third = drain(batch(TP0, 1));
        idempotence.onAcknowledged(first, 0L);
        // the broker lost what it had acknowledged: sequence 3 no longer follows anything it holds
        assertTrue(idempotence.canRetry(second, OUT_OF_ORDER, 0L, false));
        idempotence.bumpEpochIfNeeded();

        assertEquals(new ProducerIdAndEpoch(7L, (short) 1), idempotence.producerIdAndEpoch());
        assertEquals(0, second.baseSequence());
        assertEquals(2, third.baseSequence());
        assertTrue(second.sequenceReset());
        assertHeader(second, 7L, 0, 3);   // its bytes change only when it is drained again
        assertHeader(drain(second), 7L, 1, 0);
        ProducerBatch fourth = drain(batch(TP0, 1));
        assertHeader(fourth, 7L, 1, 3);
    }

    @Test
    public void unknownProducerIdRaisesTheEpochOnceNotForEachRenumberedBatch() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch first = drain(batch(TP0, 3));
        ProducerBatch second = drain(batch(TP0, 2));
        assertTrue(idempotence.canRetry(first, IdempotenceManager.UNKNOWN_PRODUCER_ID, 500L, false));
        idempotence.bumpEpochIfNeeded();
        assertEquals(1, idempotence.producerIdAndEpoch().epoch());
        // the second was on the wire with the old numbering and gets the same answer
        assertTrue(idempotence.canRetry(second, IdempotenceManager.UNKNOWN_PRODUCER_ID, 500L, false));
        idempotence.bumpEpochIfNeeded();
        assertEquals(1, idempotence.producerIdAndEpoch().epoch());
        assertEquals(0, first.baseSequence());
        assertEquals(3, second.baseSequence());
    }

    @Test
    public void aBatchRefusedForGoodHasTheBatchesAfterItNumberedAgain() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch first = drain(batch(TP0, 3));
        ProducerBatch second = drain(batch(TP0, 2));
        idempotence.onFailed(first, Errors.CORRUPT_MESSAGE.code(), true);
        idempotence.bumpEpochIfNeeded();
        assertEquals(1, idempotence.producerIdAndEpoch().epoch());
        assertEquals(0, second.baseSequence());
        assertTrue(idempotence.mayDrain(second));
    }

    @Test
    public void otherErrorsAreRetriedAsForAnyProducer() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch batch = drain(batch(TP0, 1));
        assertTrue(idempotence.canRetry(batch, Errors.NOT_LEADER_OR_FOLLOWER.code(), 0L, true));
        assertFalse(idempotence.canRetry(batch, Errors.INVALID_PRODUCER_EPOCH.code(), 0L, false));
        idempotence.bumpEpochIfNeeded();
        assertEquals(0, idempotence.producerIdAndEpoch().epoch());
    }

    @Test
    public void anExpiredBatchHoldsNewBatchesBackAndAHoleItLeavesIsClosedByANewEpoch() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch expired = drain(batch(TP0, 3));
        ProducerBatch inFlight = drain(batch(TP0, 2));
        idempotence.onFailed(expired, Errors.REQUEST_TIMED_OUT.code(), false);
        idempotence.markSequenceUnresolved(expired);
        ProducerBatch next = batch(TP0, 1);
        assertFalse("nothing new while the sequence is in doubt", idempotence.mayDrain(next));

        idempotence.onFailed(inFlight, Errors.REQUEST_TIMED_OUT.code(), false);
        idempotence.maybeResolveSequences();
        idempotence.bumpEpochIfNeeded();
        assertEquals(1, idempotence.producerIdAndEpoch().epoch());
        assertHeader(drain(next), 7L, 1, 0);
    }

    @Test
    public void anExpiredBatchFollowedByAnAcknowledgedOneLeftNoHole() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch expired = drain(batch(TP0, 3));
        ProducerBatch acknowledged = drain(batch(TP0, 2));
        idempotence.onFailed(expired, Errors.REQUEST_TIMED_OUT.code(), false);
        idempotence.markSequenceUnresolved(expired);
        // the broker took sequence 3, so it had 0..2: the expired batch is stored
        idempotence.onAcknowledged(acknowledged, 10L);
        idempotence.maybeResolveSequences();
        idempotence.bumpEpochIfNeeded();
        assertEquals(0, idempotence.producerIdAndEpoch().epoch());
        assertHeader(drain(batch(TP0, 1)), 7L, 0, 5);
    }

    @Test
    public void pastTheLastEpochANewProducerIdIsAskedForAndTheIncompleteBatchesStartOverUnderIt() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, Short.MAX_VALUE));
        ProducerBatch first = drain(batch(TP0, 3));
        ProducerBatch second = drain(batch(TP0, 2));
        idempotence.onFailed(first, Errors.CORRUPT_MESSAGE.code(), true);
        idempotence.bumpEpochIfNeeded();
        assertFalse(idempotence.hasProducerId());
        assertFalse(idempotence.mayDrain(second));

        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(8L, (short) 0));
        assertHeader(drain(second), 8L, 0, 0);
    }

    @Test
    public void aNewBatchWaitsForTheBatchesOfAnOlderEpochToComplete() {
        idempotence.setProducerIdAndEpoch(new ProducerIdAndEpoch(7L, (short) 0));
        ProducerBatch old = drain(batch(TP1, 1));
        ProducerBatch failed = drain(batch(TP0, 1));
        idempotence.onFailed(failed, Errors.CORRUPT_MESSAGE.code(), true);
        idempotence.bumpEpochIfNeeded();
        // TP1 was not renumbered: its next batch takes the new epoch only once its old one is done
        ProducerBatch next = batch(TP1, 1);
        assertFalse(idempotence.mayDrain(next));
        idempotence.onAcknowledged(old, 0L);
        assertHeader(drain(next), 7L, 1, 0);
    }
}
