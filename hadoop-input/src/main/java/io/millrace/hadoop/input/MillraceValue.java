package io.millrace.hadoop.input;

import io.millrace.schemaregistry.serde.WireFormat;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.hadoop.io.Writable;

/**
 * One message as a mapper sees it: its timestamp, its key and value bytes (either may be null) and,
 * with {@code millrace.hadoop.value.format=avro}, the value decoded with the writer's schema (and that
 * schema's registry id). With {@value MillraceInputFormat#ENCODED_AVRO_KEY} set, as the load sets it, an
 * Avro value is checked and its event time read, but no record is built: {@link #record()} is null, and
 * {@link #writerSchema()}, {@link #avroBinary()} and {@link #eventTime()} give what there is to know.
 * Mutable and reused by the record reader; copy what you keep.
 *
 * <p>Only the timestamp and the bytes are serialized: a job that shuffles values gets them without
 * the decoded record, and decodes again where it needs it.
 */
public final class MillraceValue implements Writable {

    private long timestamp;
    private byte[] key;
    private byte[] value;
    private GenericRecord record;
    private int schemaId = -1;
    private Schema writerSchema;
    private long eventTime;

    public void set(long timestamp, byte[] key, byte[] value) {
        this.timestamp = timestamp;
        this.key = key;
        this.value = value;
        this.record = null;
        this.schemaId = -1;
        this.writerSchema = null;
        this.eventTime = timestamp;
    }

    /** Makes this value the same message as {@code other}, decoded record included. */
    public void copyFrom(MillraceValue other) {
        set(other.timestamp, other.key, other.value);
        record = other.record;
        schemaId = other.schemaId;
        writerSchema = other.writerSchema;
        eventTime = other.eventTime;
    }

    void decoded(GenericRecord record, int schemaId) {
        this.record = record;
        this.schemaId = schemaId;
        this.writerSchema = record.getSchema();
    }

    /** The value checked against its writer's schema and left encoded ({@link EventScanner}). */
    void scanned(Schema writerSchema, int schemaId, long eventTime) {
        this.schemaId = schemaId;
        this.writerSchema = writerSchema;
        this.eventTime = eventTime;
    }

    /** The message's timestamp (the producer's CreateTime; the Avro event producer sets it to the event time). */
    public long timestamp() {
        return timestamp;
    }

    public byte[] key() {
        return key;
    }

    public byte[] value() {
        return value;
    }

    /** The decoded value, or null when values are not decoded. */
    public GenericRecord record() {
        return record;
    }

    /** The registry id of the writer's schema, or -1 when values are not Avro. */
    public int schemaId() {
        return schemaId;
    }

    /** The writer's schema of the Avro value, or null when values are not Avro. */
    public Schema writerSchema() {
        return writerSchema;
    }

    /**
     * The value's Avro binary encoding with the writer's schema, as it came (after the registry's 5-byte
     * prefix): a datum of {@link #writerSchema()}, or null when values are not Avro. Shares the value's bytes.
     */
    public ByteBuffer avroBinary() {
        return writerSchema == null ? null
            : ByteBuffer.wrap(value, WireFormat.PAYLOAD_OFFSET, value.length - WireFormat.PAYLOAD_OFFSET);
    }

    /**
     * When the event happened: its event header's time, or the message's timestamp when the event has no
     * header time or values are not Avro.
     */
    public long eventTime() {
        return record != null ? EventTime.of(record, timestamp) : eventTime;
    }

    @Override
    public void write(DataOutput out) throws IOException {
        out.writeLong(timestamp);
        writeBytes(out, key);
        writeBytes(out, value);
    }

    @Override
    public void readFields(DataInput in) throws IOException {
        set(in.readLong(), readBytes(in), readBytes(in));
    }

    private static void writeBytes(DataOutput out, byte[] bytes) throws IOException {
        out.writeInt(bytes == null ? -1 : bytes.length);
        if (bytes != null) {
            out.write(bytes);
        }
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        int length = in.readInt();
        if (length < 0) {
            return null;
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes);
        return bytes;
    }
}
