package io.millrace.hadoop.load;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.junit.Test;

/** Events appended on the appender's thread land in their files in order; a failure there fails the task's thread. */
public class BackgroundAppenderTest {

    private static final Schema LONG = Schema.create(Schema.Type.LONG);

    @Test
    public void everyEventGivenIsInItsFileInOrderAfterFinish() throws IOException {
        ByteArrayOutputStream even = new ByteArrayOutputStream();
        ByteArrayOutputStream odd = new ByteArrayOutputStream();
        DataFileWriter<Object> evenWriter = writer(even);
        DataFileWriter<Object> oddWriter = writer(odd);
        BackgroundAppender appender = new BackgroundAppender("test-appender");
        int events = BackgroundAppender.BATCH * 3 + 7;
        for (long n = 0; n < events; n++) {
            appender.append(n % 2 == 0 ? evenWriter : oddWriter, encoded(n));
        }
        appender.finish();
        evenWriter.close();
        oddWriter.close();
        assertEquals(numbers(0, events), read(even));
        assertEquals(numbers(1, events), read(odd));
    }

    @Test
    public void aFailureOnTheAppendersThreadIsThrownByFinish() throws IOException {
        DataFileWriter<Object> closed = writer(new ByteArrayOutputStream());
        closed.close();
        BackgroundAppender appender = new BackgroundAppender("test-appender");
        appender.append(closed, encoded(1));
        assertThrows(IOException.class, appender::finish);
    }

    private static DataFileWriter<Object> writer(ByteArrayOutputStream out) throws IOException {
        return new DataFileWriter<>(new GenericDatumWriter<>(LONG)).create(LONG, out);
    }

    /** {@code n} as Avro encodes a long: zig-zag varint. */
    private static ByteBuffer encoded(long n) {
        ByteBuffer out = ByteBuffer.allocate(10);
        long z = (n << 1) ^ (n >> 63);
        while ((z & ~0x7fL) != 0) {
            out.put((byte) ((z & 0x7f) | 0x80));
            z >>>= 7;
        }
        out.put((byte) z);
        return out.flip();
    }

    private static List<Long> numbers(long first, int below) {
        List<Long> numbers = new ArrayList<>();
        for (long n = first; n < below; n += 2) {
            numbers.add(n);
        }
        return numbers;
    }

    private static List<Long> read(ByteArrayOutputStream file) throws IOException {
        List<Long> read = new ArrayList<>();
        try (DataFileStream<Object> in = new DataFileStream<>(new ByteArrayInputStream(file.toByteArray()),
                new GenericDatumReader<>(LONG))) {
            in.forEach(n -> read.add((Long) n));
        }
        return read;
    }
}
