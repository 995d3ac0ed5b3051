package bip37.protocol;

/**
 * The library cannot express this input (a filter flag its API has no value for, a size its
 * API cannot take): answered as status "unsupported", which the suite reports without counting
 * it as a failure. Never throw it for a fault of the adapter: that must crash.
 */
public final class Unsupported extends Exception {
    private static final long serialVersionUID = 1L;

    public Unsupported(String message) {
        super(message);
    }
}
