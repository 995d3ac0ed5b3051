package bip37.protocol;

/**
 * The library rejected the input: answered as status "error", with the stage where it happened
 * ({@code null} where the library has no such step). Thrown by {@link Library#call} for any
 * exception a library call raises, or by an operation for a rejection the library reports as a
 * value (a {@code false} from a validity check).
 */
public final class Rejected extends Exception {
    private static final long serialVersionUID = 1L;

    private final Stage stage;

    public Rejected(Stage stage, String message) {
        super(message);
        this.stage = stage;
    }

    public Rejected(Stage stage, String message, Throwable cause) {
        super(message, cause);
        this.stage = stage;
    }

    /** The stage of the rejection, or {@code null}. */
    public Stage stage() {
        return stage;
    }
}
