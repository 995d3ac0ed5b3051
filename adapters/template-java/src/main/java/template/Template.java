package template;

import bip37.protocol.Adapter;
import bip37.protocol.Rejected;
import bip37.protocol.Stage;
import com.google.gson.JsonObject;

/**
 * A bip37-conform adapter template in Java: copy this directory, replace the three example
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

    /** Core's constants (src/common/bloom.cpp), as doubles. */
    private static final double LN2SQUARED = 0.4804530139182014246671025263266649717305529515945455;
    private static final double LN2 = 0.6931471805599453094172321214581765680755001343602552;

    /**
     * Filter bytes and hash functions for (n, p), as Core's constructor: the bit count is
     * -1 / ln2^2 * n * ln p in doubles, in that order, truncated and capped at 288,000; the hash
     * function count divides the filter's bits by n in INTEGERS (two {@code long}s) before
     * multiplying by ln 2. Inputs Core leaves undefined are rejected (docs/PROTOCOL.md, sizing).
     */
    static JsonObject sizing(long n, double rate) throws Rejected {
        if (n == 0 || !(rate > 0)) {
            throw new Rejected(Stage.PARAMETERS, "no defined filter for n = " + n + ", p = " + rate);
        }
        double bits = -1 / LN2SQUARED * n * Math.log(rate);
        if (!(bits > -1 && bits < 0x1p32)) {
            throw new Rejected(Stage.PARAMETERS, "the bit count " + bits + " is outside unsigned int");
        }
        long filterBytes = Math.min((long) bits, 36000 * 8) / 8;
        JsonObject out = new JsonObject();
        out.addProperty("filterBytes", filterBytes);
        out.addProperty("hashFuncs", Math.min((long) (filterBytes * 8 / n * LN2), 50));
        return out;
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
                .operation("sizing", in -> sizing(in.u32("nElements"), in.fpRate("fpRate")))
                .serve();
    }
}
