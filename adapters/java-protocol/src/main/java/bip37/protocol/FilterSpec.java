package bip37.protocol;

/**
 * A vector's filter description (docs/PROTOCOL.md): {@code sized} by the constructor from
 * {@code nElements} and {@code fpRate}, {@code explicit} in size with all bits clear, or
 * {@code loaded} with the bytes a filterload carries. The fields a kind does not have are 0
 * (or null for {@code data}); read them through {@link #kind()} first.
 */
public record FilterSpec(
        Kind kind,
        long nElements,
        double fpRate,
        long filterBytes,
        long hashFuncs,
        byte[] data,
        long tweak,
        int flags) {

    /** How the filter is set up. */
    public enum Kind {
        SIZED,
        EXPLICIT,
        LOADED
    }

    /** The description in a request's {@code filter} object. */
    public static FilterSpec of(Input f) {
        String kind = f.string("kind");
        switch (kind) {
            case "sized":
                return new FilterSpec(Kind.SIZED, f.u32("nElements"), f.fpRate("fpRate"), 0, 0, null,
                        f.u32("tweak"), f.u8("flags"));
            case "explicit":
                return new FilterSpec(Kind.EXPLICIT, 0, 0, f.u32("filterBytes"), f.u32("hashFuncs"), null,
                        f.u32("tweak"), f.u8("flags"));
            case "loaded":
                return new FilterSpec(Kind.LOADED, 0, 0, 0, f.u32("hashFuncs"), f.bytes("data"),
                        f.u32("tweak"), f.u8("flags"));
            default:
                throw new IllegalArgumentException("unknown filter kind \"" + kind + "\"");
        }
    }
}
