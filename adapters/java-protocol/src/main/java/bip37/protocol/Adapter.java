package bip37.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.JsonPrimitive;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The subprocess protocol, version 1 (docs/PROTOCOL.md), for Java adapters: the hello line and
 * the request loop, so that an adapter only writes its operations. The Java twin of
 * adapters/py-protocol/bip37_protocol.py and adapters/js-protocol/protocol.js.
 *
 * <p>An adapter names its implementation, version and notes, registers one {@link Operation}
 * per wire name it supports (the hello claims them in that order) and calls {@link #serve}. An
 * operation throws {@link Rejected} for a rejection of the input (usually through {@link
 * Library#call}, which turns any exception of a library call into one) and {@link Unsupported}
 * for an input the library cannot express. Any other exception, a request this loop cannot
 * read, or a line longer than {@link #MAX_LINE} bytes is the adapter's own failure: the loop
 * prints the stack trace on stderr and the process exits with status 1, so the harness reports
 * a crash and never mistakes a bug for a rejection.
 */
public final class Adapter {
    /** The protocol version this loop speaks. */
    public static final int PROTOCOL = 1;

    /**
     * The longest request line read, in bytes: the harness's own bound for a request it serves
     * (docs/PROTOCOL.md); a longer line is refused, never buffered without limit.
     */
    public static final int MAX_LINE = 64 << 20;

    /** One operation: a request's input to its output. */
    @FunctionalInterface
    public interface Operation {
        JsonObject answer(Input input) throws Rejected, Unsupported;
    }

    /** The adapter stopped on its own fault; the message says why. */
    static final class Fault extends Exception {
        private static final long serialVersionUID = 1L;

        Fault(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final String implementation;
    private final String version;
    private String notes;
    private final Map<String, Operation> operations = new LinkedHashMap<>();

    public Adapter(String implementation, String version) {
        this.implementation = implementation;
        this.version = version;
    }

    /** Free text for the hello: which inputs of a supported operation it cannot handle, and why. */
    public Adapter notes(String text) {
        this.notes = text;
        return this;
    }

    /** Claims the operation {@code wireName} in the hello and answers its requests with {@code op}. */
    public Adapter operation(String wireName, Operation op) {
        if (operations.put(wireName, op) != null) {
            throw new IllegalArgumentException("operation " + wireName + " registered twice");
        }
        return this;
    }

    /**
     * Speaks the protocol on stdin and stdout until stdin closes, then returns; on a fault of
     * the adapter, exits with status 1. Anything else written to {@code System.out} (a
     * library's logging) goes to stderr, so that stdout carries answers only.
     */
    public void serve() {
        PrintStream protocolOut = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
        System.setOut(System.err);
        int status = run(System.in, protocolOut, System.err);
        protocolOut.flush();
        if (status != 0) {
            System.exit(status);
        }
    }

    /** The loop over the given streams; its exit status: 0 at the end of input, 1 on a fault. */
    int run(InputStream in, PrintStream out, PrintStream err) {
        LineReader lines = new LineReader(in, MAX_LINE);
        try {
            send(out, hello());
            for (String line = lines.next(); line != null; line = lines.next()) {
                if (!line.isBlank()) {
                    send(out, answer(line));
                }
            }
            return 0;
        } catch (Fault | LineReader.BadLine | RuntimeException e) {
            e.printStackTrace(err);
            err.println(implementation + " adapter stopped: " + Library.describe(e));
            err.flush();
            return 1;
        }
    }

    private JsonObject hello() {
        JsonObject hello = new JsonObject();
        hello.addProperty("protocol", PROTOCOL);
        hello.addProperty("implementation", implementation);
        hello.addProperty("version", version);
        JsonArray names = new JsonArray();
        operations.keySet().forEach(names::add);
        hello.add("operations", names);
        if (notes != null) {
            hello.addProperty("notes", notes);
        }
        JsonObject line = new JsonObject();
        line.add("hello", hello);
        return line;
    }

    private static void send(PrintStream out, JsonObject message) throws Fault {
        out.print(message.toString());
        out.print('\n');
        out.flush();
        if (out.checkError()) {
            throw new Fault("stdout is closed: the harness no longer reads the answers", null);
        }
    }

    /** The start of a request line, for a message. */
    private static String excerpt(String line) {
        return line.length() <= 200 ? line : line.substring(0, 200) + "... (" + line.length() + " characters)";
    }

    /** The answer to one request line. */
    private JsonObject answer(String line) throws Fault {
        JsonObject request;
        try {
            JsonElement parsed = JsonParser.parseString(line);
            request = parsed.getAsJsonObject();
        } catch (RuntimeException e) {
            throw new Fault("not a request line: " + excerpt(line), e);
        }
        JsonElement id = requestId(request, line);
        JsonObject reply = new JsonObject();
        reply.add("id", id);
        JsonElement op = request.get("op");
        JsonElement input = request.get("input");
        if (op == null || !op.isJsonPrimitive() || input == null || !input.isJsonObject()) {
            throw new Fault("a request without an op name or an input object: " + excerpt(line), null);
        }
        Operation operation = operations.get(op.getAsString());
        if (operation == null) {
            reply.addProperty("status", "unsupported");
            reply.addProperty("message", "operation " + op.getAsString() + " is not offered by " + implementation);
            return reply;
        }
        try {
            JsonObject output = operation.answer(new Input(input.getAsJsonObject()));
            if (output == null) {
                throw new Fault("operation " + op.getAsString() + " answered null", null);
            }
            reply.addProperty("status", "ok");
            reply.add("output", output);
        } catch (Unsupported why) {
            reply.addProperty("status", "unsupported");
            reply.addProperty("message", why.getMessage());
        } catch (Rejected why) {
            reply.addProperty("status", "error");
            if (why.stage() != null) {
                reply.addProperty("stage", why.stage().wire());
            }
            reply.addProperty("message", why.getMessage());
        }
        return reply;
    }

    /** The request's id: a positive integer, repeated as it came in the answer. */
    private static JsonElement requestId(JsonObject request, String line) throws Fault {
        JsonElement id = request.get("id");
        if (id != null && id.isJsonPrimitive() && id.getAsJsonPrimitive().isNumber()) {
            BigDecimal n = new BigDecimal(id.getAsString());
            if (n.signum() > 0 && n.stripTrailingZeros().scale() <= 0) {
                return id;
            }
        }
        throw new Fault("a request without a positive integer id: " + excerpt(line), null);
    }
}
