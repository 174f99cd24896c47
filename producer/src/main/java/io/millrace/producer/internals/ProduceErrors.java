package io.millrace.producer.internals;

import io.millrace.common.errors.MillraceException;
import io.millrace.common.protocol.Errors;
import io.millrace.common.protocol.message.ProduceResponse.PartitionResponse;

/**
 * The exception a batch fails with when the broker refuses it, worded for the user: an idempotent
 * producer's refusals say which producer id, epoch and sequence the broker would not take, and what
 * that means, since the broker's own message rarely does.
 */
final class ProduceErrors {

    private ProduceErrors() {
    }

    static RuntimeException exception(ProducerBatch batch, PartitionResponse answer) {
        String prefix = "Producing to " + batch.topicPartition() + " failed: ";
        String said = answer.errorMessage() != null ? " (the broker said: " + answer.errorMessage() + ")" : "";
        short code = answer.errorCode();
        Errors error = answer.error();
        if (code == Errors.INVALID_PRODUCER_EPOCH.code()) {
            return error.exception(prefix + "INVALID_PRODUCER_EPOCH: the partition holds a newer epoch of producer id "
                + batch.producerIdAndEpoch().producerId() + " than this batch's " + batch.producerIdAndEpoch().epoch()
                + ", so the batch was fenced and not appended" + said);
        }
        if (code == IdempotenceManager.PRODUCER_FENCED) {
            return new MillraceException(prefix + "PRODUCER_FENCED: another producer took over producer id "
                + batch.producerIdAndEpoch().producerId() + " with a newer epoch; this producer sends nothing more" + said);
        }
        if (code == IdempotenceManager.UNKNOWN_PRODUCER_ID) {
            return new MillraceException(prefix + "UNKNOWN_PRODUCER_ID: the broker holds no state for "
                + batch.producerIdAndEpoch() + " in this partition" + said);
        }
        if (code == Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code()) {
            return error.exception(prefix + "OUT_OF_ORDER_SEQUENCE_NUMBER: the broker did not expect sequence "
                + batch.baseSequence() + " from " + batch.producerIdAndEpoch() + said);
        }
        if (error == Errors.UNKNOWN_SERVER_ERROR && code != error.code()) {
            return error.exception(prefix + "error code " + code + said);
        }
        return error.exception(prefix + (answer.errorMessage() != null ? answer.errorMessage() : error.message()));
    }
}
