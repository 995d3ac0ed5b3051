package template;

import bip37.protocol.Adapter;
import com.google.gson.JsonObject;

/**
 * A bip37-conform adapter template in Java: copy this directory, replace the two example
 * operations with calls into your library, register the operations it supports, build the copy
 * with the checkout's {@code adapters/java-protocol/build.sh COPY template.Template} and run the
 * suite against it:
 *
 * <pre>bip37-conform run --impl "java @COPY/target/classpath.args template.Template"</pre>
 *
 * <p>{@link Adapter} (adapters/java-protocol) speaks the protocol (docs/PROTOCOL.md): the hello
 * naming the registered operations, then one answer line per request. An operation returns its
 * output; it throws {@code Rejected} to reject the input (wrap each library call in
 * {@code Library.call(stage, ...)}, which turns the library's exceptions into rejections) and
 * {@code Unsupported} for an input the library cannot express. Any other exception is a bug of
 * the adapter: the process stops and the harness reports a crash. Bytes are lowercase hex
 * ({@code input.bytes(name)}); write diagnostics to stderr, never to stdout.
 */
public final class Template {
    private Template() {}

    /** MurmurHash3 x86_32, as Bitcoin Core's MurmurHash3 (little-endian blocks and tail). */
    static int murmur3(int seed, byte[] data) {
        int h = seed;
        int rounded = data.length - data.length % 4;
        for (int i = 0; i < rounded; i += 4) {
            int k = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 | data[i + 3] << 24;
            h = Integer.rotateLeft(h ^ mix(k), 13) * 5 + 0xe6546b64;
        }
        int k = 0;
        for (int i = data.length - 1; i >= rounded; i--) {
            k = k << 8 | (data[i] & 0xff);
        }
        if (data.length % 4 != 0) {
            h ^= mix(k);
        }
        h ^= data.length;
        h = (h ^ h >>> 16) * 0x85ebca6b;
        h = (h ^ h >>> 13) * 0xc2b2ae35;
        return h ^ h >>> 16;
    }

    private static int mix(int k) {
        return Integer.rotateLeft(k * 0xcc9e2d51, 15) * 0x1b873593;
    }

    public static void main(String[] args) {
        new Adapter("template-java", "0.1.0")
                .operation("murmur3", in -> {
                    JsonObject out = new JsonObject();
                    out.addProperty("hash", Integer.toUnsignedLong(murmur3((int) in.u32("seed"), in.bytes("data"))));
                    return out;
                })
                .operation("hashSeed", in -> {
                    JsonObject out = new JsonObject();
                    out.addProperty("seed", (in.u32("hashIndex") * 0xfba4c795L + in.u32("tweak")) & 0xffffffffL);
                    return out;
                })
                .serve();
    }
}
