package io.millrace.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Random;

/**
 * Damages files the way crashes and bad disks do, for recovery tests: a torn tail, garbage to the
 * end of the file, one flipped byte. Stateless; every method opens and closes the file.
 */
public final class FileCorrupter {

    private FileCorrupter() {
    }

    /** Cuts the file to {@code size} bytes, as a write torn by a crash leaves it. */
    public static void truncate(Path file, long size) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(size);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Overwrites every byte from {@code position} to the end with random bytes; the first one is
     * certain to change, so the damage really starts at {@code position}.
     */
    public static void randomizeFrom(Path file, long position, Random random) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer original = ByteBuffer.allocate(1);
            channel.read(original, position);
            byte[] garbage = new byte[(int) (channel.size() - position)];
            random.nextBytes(garbage);
            if (garbage.length > 0 && garbage[0] == original.get(0)) {
                garbage[0] = (byte) ~garbage[0];
            }
            write(channel, ByteBuffer.wrap(garbage), position);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Inverts every bit of the byte at {@code position}, so it is certain to change. */
    public static void flipByte(Path file, long position) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer one = ByteBuffer.allocate(1);
            if (channel.read(one, position) != 1) {
                throw new IllegalArgumentException("No byte at position " + position + " of " + file);
            }
            one.put(0, (byte) ~one.get(0));
            one.rewind();
            write(channel, one, position);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Appends {@code count} zero bytes, as a crash after a file was extended but before its data landed can. */
    public static void appendZeros(Path file, int count) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            write(channel, ByteBuffer.allocate(count), channel.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(FileChannel channel, ByteBuffer bytes, long position) throws IOException {
        long at = position;
        while (bytes.hasRemaining()) {
            at += channel.write(bytes, at);
        }
    }
}
