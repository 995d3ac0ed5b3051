package bip37.protocol;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;

/**
 * Reads the harness's request lines: UTF-8 text ended by '\n' (a '\r' before it is dropped), at
 * most {@code bound} bytes each. A longer line is refused as soon as it passes the bound, so a
 * runaway line never fills the memory.
 */
final class LineReader {
    /** The line could not be read: too long, not UTF-8, or stdin failed. */
    static final class BadLine extends Exception {
        private static final long serialVersionUID = 1L;

        BadLine(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final InputStream in;
    private final int bound;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;

    LineReader(InputStream in, int bound) {
        this.in = in;
        this.bound = bound;
    }

    /** The next line without its end, or null at the end of input. */
    String next() throws BadLine {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        while (true) {
            if (position == limit && !fill()) {
                return line.size() == 0 ? null : decode(line.toByteArray());
            }
            int end = position;
            while (end < limit && buffer[end] != '\n') {
                end++;
            }
            if (line.size() + (end - position) > bound) {
                throw new BadLine("a request line longer than " + bound + " bytes: refused", null);
            }
            line.write(buffer, position, end - position);
            if (end < limit) {
                position = end + 1;
                return decode(line.toByteArray());
            }
            position = limit;
        }
    }

    private boolean fill() throws BadLine {
        try {
            int n = in.read(buffer);
            position = 0;
            limit = Math.max(n, 0);
            return n > 0;
        } catch (IOException e) {
            throw new BadLine("reading stdin failed", e);
        }
    }

    private static String decode(byte[] bytes) throws BadLine {
        int end = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, 0, end)).toString();
        } catch (CharacterCodingException e) {
            throw new BadLine("a request line that is not UTF-8", e);
        }
    }
}
