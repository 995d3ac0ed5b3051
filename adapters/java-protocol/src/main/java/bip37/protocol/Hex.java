package bip37.protocol;

/** Byte strings as the protocol carries them: lowercase hex, two digits per byte. */
public final class Hex {
    private static final char[] DIGITS = "0123456789abcdef".toCharArray();

    private Hex() {}

    /** Lowercase hex of whole bytes to bytes; anything else is refused (the adapter's fault). */
    public static byte[] decode(String text) {
        if (text.length() % 2 != 0) {
            throw new IllegalArgumentException("not hex of whole bytes: \"" + text + "\"");
        }
        byte[] bytes = new byte[text.length() / 2];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (digit(text, 2 * i) << 4 | digit(text, 2 * i + 1));
        }
        return bytes;
    }

    private static int digit(String text, int at) {
        char c = text.charAt(at);
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        throw new IllegalArgumentException("not lowercase hex at " + at + ": \"" + text + "\"");
    }

    /** Bytes to lowercase hex. */
    public static String encode(byte[] bytes) {
        char[] text = new char[bytes.length * 2];
        for (int i = 0; i < bytes.length; i++) {
            text[2 * i] = DIGITS[(bytes[i] >> 4) & 0xf];
            text[2 * i + 1] = DIGITS[bytes[i] & 0xf];
        }
        return new String(text);
    }
}
