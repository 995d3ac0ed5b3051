package bip37.protocol;

import java.io.ByteArrayOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The byte layout of a filterload payload: CompactSize length, filter bytes, nHashFuncs u32 LE,
 * nTweak u32 LE, nFlags u8. An adapter uses it only to carry fields between the protocol and
 * the library: to hand a {@code loaded} filter to the library's own decoder ({@link #encode}),
 * and to read the fields back out of the bytes the library's own serializer wrote ({@link
 * #parse}) where the library has no getter for them. It decides nothing BIP 37 itself: it
 * applies no limits, and {@link #parse} refuses anything but one exact, canonical payload,
 * which the library's serializer always writes.
 */
public record Filterload(byte[] data, long hashFuncs, long tweak, int flags) {

    /** The payload of these fields. */
    public byte[] encode() {
        return encode(data, hashFuncs, tweak, flags);
    }

    /** The payload of the given fields. */
    public static byte[] encode(byte[] data, long hashFuncs, long tweak, int flags) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(data.length + 14);
        int n = data.length;
        if (n < 0xfd) {
            out.write(n);
        } else if (n <= 0xffff) {
            out.write(0xfd);
            out.write(n);
            out.write(n >>> 8);
        } else {
            out.write(0xfe);
            out.writeBytes(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(n).array());
        }
        out.writeBytes(data);
        ByteBuffer tail = ByteBuffer.allocate(9).order(ByteOrder.LITTLE_ENDIAN);
        tail.putInt((int) hashFuncs).putInt((int) tweak).put((byte) flags);
        out.writeBytes(tail.array());
        return out.toByteArray();
    }

    /**
     * The fields of a payload the library serialized. A payload that is not exactly one
     * canonical filterload is an {@link IllegalStateException}: the library's serializer wrote
     * something the adapter cannot report, so the adapter stops.
     */
    public static Filterload parse(byte[] payload) {
        ByteBuffer in = ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN);
        try {
            int first = in.get() & 0xff;
            long length;
            if (first < 0xfd) {
                length = first;
            } else if (first == 0xfd) {
                length = in.getShort() & 0xffff;
            } else if (first == 0xfe) {
                length = in.getInt() & 0xffffffffL;
            } else {
                throw new IllegalStateException("a 64-bit filter length");
            }
            if (length != in.remaining() - 9) {
                throw new IllegalStateException("length " + length + " with " + in.remaining() + " bytes after it");
            }
            byte[] data = new byte[(int) length];
            in.get(data);
            long hashFuncs = in.getInt() & 0xffffffffL;
            long tweak = in.getInt() & 0xffffffffL;
            int flags = in.get() & 0xff;
            if (!Arrays.equals(encode(data, hashFuncs, tweak, flags), payload)) {
                throw new IllegalStateException("a non-canonical length");
            }
            return new Filterload(data, hashFuncs, tweak, flags);
        } catch (BufferUnderflowException e) {
            throw new IllegalStateException("the library's filterload bytes are truncated: " + Hex.encode(payload), e);
        } catch (IllegalStateException e) {
            throw new IllegalStateException("the library's filterload bytes are not one filterload ("
                    + e.getMessage() + "): " + Hex.encode(payload), e);
        }
    }
}
