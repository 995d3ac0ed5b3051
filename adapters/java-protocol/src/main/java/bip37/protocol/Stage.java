package bip37.protocol;

/** Where an implementation rejected an input: the `stage` of an "error" answer (docs/PROTOCOL.md). */
public enum Stage {
    DECODE("decode"),
    LIMITS("limits"),
    PARAMETERS("parameters"),
    VALIDATION("validation");

    private final String wire;

    Stage(String wire) {
        this.wire = wire;
    }

    /** The stage's name on the wire. */
    public String wire() {
        return wire;
    }
}
