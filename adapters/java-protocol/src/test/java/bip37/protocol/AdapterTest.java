package bip37.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The loop: framing, hello, the three answers and the crash rule. */
class AdapterTest {
    /** What one run of the loop wrote and returned. */
    private record Run(int status, List<String> lines, String stderr) {
        JsonObject line(int i) {
            return JsonParser.parseString(lines.get(i)).getAsJsonObject();
        }
    }

    private static Adapter adapter() {
        return new Adapter("test-impl", "1.2.3")
                .notes("some notes")
                .operation("murmur3", in -> {
                    JsonObject out = new JsonObject();
                    out.addProperty("hash", in.u32("seed") + in.bytes("data").length);
                    return out;
                })
                .operation("filteraddDecode", in -> {
                    byte[] payload = in.bytes("payload");
                    Library.call(Stage.DECODE, () -> payload[5]);
                    throw new AssertionError("not reached in these tests");
                })
                .operation("sizing", in -> {
                    if (in.u32("nElements") == 0) {
                        throw new Unsupported("no empty filters");
                    }
                    throw new IllegalStateException("an adapter bug");
                });
    }

    private static Run run(Adapter adapter, byte[] stdin) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = adapter.run(new ByteArrayInputStream(stdin),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertTrue(text.isEmpty() || text.endsWith("\n"), "every line ends with \\n: " + text);
        List<String> lines = text.isEmpty() ? List.of() : Arrays.stream(text.split("\n", -1))
                .limit(text.split("\n", -1).length - 1).collect(Collectors.toList());
        return new Run(status, lines, err.toString(StandardCharsets.UTF_8));
    }

    private static Run run(String stdin) {
        return run(adapter(), stdin.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void saysHelloFirstWithItsOperationsInOrder() {
        Run r = run("");
        assertEquals(0, r.status);
        assertEquals(1, r.lines.size());
        assertEquals("{\"hello\":{\"protocol\":1,\"implementation\":\"test-impl\",\"version\":\"1.2.3\","
                + "\"operations\":[\"murmur3\",\"filteraddDecode\",\"sizing\"],\"notes\":\"some notes\"}}", r.lines.get(0));
    }

    @Test
    void answersOneLinePerRequestWithItsId() {
        Run r = run("{\"id\": 7, \"op\": \"murmur3\", \"input\": {\"seed\": 4294967295, \"data\": \"00ff\"}}\r\n"
                + "\n"
                + "{\"id\": 8, \"op\": \"murmur3\", \"input\": {\"seed\": 1, \"data\": \"\"}}");
        assertEquals(0, r.status, r.stderr);
        assertEquals(3, r.lines.size());
        assertEquals("{\"id\":7,\"status\":\"ok\",\"output\":{\"hash\":4294967297}}", r.lines.get(1));
        assertEquals("{\"id\":8,\"status\":\"ok\",\"output\":{\"hash\":1}}", r.lines.get(2));
    }

    @Test
    void aLibraryExceptionIsARejectionWithItsStage() {
        Run r = run("{\"id\": 1, \"op\": \"filteraddDecode\", \"input\": {\"payload\": \"01aa\"}}\n");
        assertEquals(0, r.status, r.stderr);
        JsonObject reply = r.line(1);
        assertEquals("error", reply.get("status").getAsString());
        assertEquals("decode", reply.get("stage").getAsString());
        assertTrue(reply.get("message").getAsString().contains("ArrayIndexOutOfBoundsException"), reply.toString());
    }

    @Test
    void unsupportedInputsAndUnknownOperationsAreUnsupported() {
        Run r = run("{\"id\": 1, \"op\": \"sizing\", \"input\": {\"nElements\": 0, \"fpRate\": 0.1}}\n"
                + "{\"id\": 2, \"op\": \"pmtBuild\", \"input\": {}}\n");
        assertEquals(0, r.status, r.stderr);
        assertEquals("{\"id\":1,\"status\":\"unsupported\",\"message\":\"no empty filters\"}", r.lines.get(1));
        assertEquals("unsupported", r.line(2).get("status").getAsString());
    }

    @Test
    void anAdapterFaultIsACrashNeverAnAnswer() {
        Run r = run("{\"id\": 1, \"op\": \"sizing\", \"input\": {\"nElements\": 3, \"fpRate\": 0.1}}\n"
                + "{\"id\": 2, \"op\": \"murmur3\", \"input\": {\"seed\": 1, \"data\": \"\"}}\n");
        assertEquals(1, r.status);
        assertEquals(1, r.lines.size(), "no answer after the hello: " + r.lines);
        assertTrue(r.stderr.contains("java.lang.IllegalStateException: an adapter bug"), r.stderr);
        assertTrue(r.stderr.contains("\tat bip37.protocol.AdapterTest"), "a stack trace: " + r.stderr);
        assertTrue(r.stderr.contains("test-impl adapter stopped"), r.stderr);
    }

    @Test
    void aRequestTheAdapterCannotReadIsACrash() {
        for (String bad : List.of(
                "not json\n",
                "[1, 2]\n",
                "{\"op\": \"murmur3\", \"input\": {\"seed\": 1, \"data\": \"\"}}\n",
                "{\"id\": 0, \"op\": \"murmur3\", \"input\": {\"seed\": 1, \"data\": \"\"}}\n",
                "{\"id\": 1, \"op\": \"murmur3\"}\n",
                "{\"id\": 1, \"op\": \"murmur3\", \"input\": {\"seed\": 1, \"data\": \"0F\"}}\n",
                "{\"id\": 1, \"op\": \"murmur3\", \"input\": {\"seed\": 4294967296, \"data\": \"\"}}\n",
                "{\"id\": 1, \"op\": \"murmur3\", \"input\": {\"seed\": 1.5, \"data\": \"\"}}\n")) {
            Run r = run(bad);
            assertEquals(1, r.status, bad);
            assertEquals(1, r.lines.size(), bad);
            assertTrue(r.stderr.contains("adapter stopped"), bad + r.stderr);
        }
        Run notUtf8 = run(adapter(), new byte[] {'{', (byte) 0xff, '}', '\n'});
        assertEquals(1, notUtf8.status);
        assertTrue(notUtf8.stderr.contains("not UTF-8"), notUtf8.stderr);
    }

    @Test
    void aLineOverTheBoundIsRefusedNotBuffered() {
        byte[] line = new byte[Adapter.MAX_LINE + 1];
        Arrays.fill(line, (byte) ' ');
        Run r = run(adapter(), line);
        assertEquals(1, r.status);
        assertTrue(r.stderr.contains("longer than " + Adapter.MAX_LINE), r.stderr);
        byte[] fits = new byte[Adapter.MAX_LINE + 1];
        Arrays.fill(fits, (byte) ' ');
        fits[Adapter.MAX_LINE] = '\n';
        Run blank = run(adapter(), fits);
        assertEquals(0, blank.status, "a line of exactly the bound is read: " + blank.stderr);
        assertFalse(blank.stderr.contains("longer"));
    }

    @Test
    void aClosedStdoutStopsTheLoop() {
        java.io.OutputStream closed = new java.io.OutputStream() {
            @Override
            public void write(int b) throws java.io.IOException {
                throw new java.io.IOException("closed");
            }
        };
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = adapter().run(new ByteArrayInputStream(new byte[0]), new PrintStream(closed, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, status);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("stdout is closed"));
    }

    @Test
    void operationsAreRegisteredOnce() {
        Adapter a = adapter();
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> a.operation("murmur3", in -> new JsonObject()));
    }
}
