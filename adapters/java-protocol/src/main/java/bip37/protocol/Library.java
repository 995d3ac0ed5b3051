package bip37.protocol;

/**
 * Calls into the library under test. An exception thrown inside such a call is the library's
 * answer to the input, a rejection; an exception anywhere else in an operation is the adapter's
 * own fault and must reach the loop, which stops so that the harness reports a crash. Wrap each
 * library call, and only library calls, in {@link #call} or {@link #run}.
 */
public final class Library {
    private Library() {}

    /** A call into the library that returns a value. */
    @FunctionalInterface
    public interface Call<T> {
        T get() throws Exception;
    }

    /** A call into the library that returns nothing (an insert, an update). */
    @FunctionalInterface
    public interface Action {
        void run() throws Exception;
    }

    /**
     * Runs {@code call}; an exception it throws becomes a {@link Rejected} at {@code stage}
     * ({@code null} where the library has no validation step, e.g. while hashing). Errors
     * (stack overflow, out of memory) are not rejections and pass through: the adapter crashes.
     */
    public static <T> T call(Stage stage, Call<T> call) throws Rejected {
        try {
            return call.get();
        } catch (Exception e) {
            throw new Rejected(stage, describe(e), e);
        }
    }

    /** {@link #call} for a call that returns nothing. */
    public static void run(Stage stage, Action action) throws Rejected {
        call(stage, () -> {
            action.run();
            return null;
        });
    }

    /** An exception's class and message, for an answer's or a crash's text. */
    public static String describe(Throwable e) {
        String message = e.getMessage();
        return e.getClass().getName() + (message == null ? "" : ": " + message);
    }
}
