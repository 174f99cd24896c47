package io.millrace.broker.server;

import io.millrace.broker.log.FileSlice;
import io.millrace.common.errors.KafkaStorageException;
import io.millrace.common.protocol.types.RecordsPayload;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A fetched range of a segment file as a records field. The response path sends it as a file
 * region ({@code sendfile}); {@link #copyTo} reads it into memory only where zero copy is not
 * possible.
 */
public record FileSlicePayload(FileSlice slice) implements RecordsPayload {

    @Override
    public int sizeInBytes() {
        return slice.sizeInBytes();
    }

    @Override
    public void copyTo(ByteBuffer destination) {
        try {
            destination.put(slice.readFully());
        } catch (IOException e) {
            throw new KafkaStorageException("Could not read " + slice, e);
        }
    }
}
