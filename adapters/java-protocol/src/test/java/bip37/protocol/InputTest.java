package bip37.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonParser;
import org.junit.jupiter.api.Test;

/** Reading a request's input: the protocol's types, and a crash for anything else. */
class InputTest {
    private static Input input(String json) {
        return new Input(JsonParser.parseString(json).getAsJsonObject());
    }

    @Test
    void readsFpRatesIncludingTheNamedOnes() {
        assertEquals(0.01, input("{\"p\": 0.01}").fpRate("p"));
        assertEquals(1e-300, input("{\"p\": 1e-300}").fpRate("p"));
        assertTrue(Double.isNaN(input("{\"p\": \"NaN\"}").fpRate("p")));
        assertEquals(Double.NEGATIVE_INFINITY, input("{\"p\": \"-Infinity\"}").fpRate("p"));
        assertThrows(IllegalArgumentException.class, () -> input("{\"p\": \"nan\"}").fpRate("p"));
    }

    @Test
    void readsTheThreeFilterKinds() {
        FilterSpec sized = input("{\"f\": {\"kind\": \"sized\", \"nElements\": 3, \"fpRate\": 0.5, \"tweak\": 9, \"flags\": 2}}")
                .filter("f");
        assertEquals(FilterSpec.Kind.SIZED, sized.kind());
        assertEquals(3, sized.nElements());
        assertEquals(9, sized.tweak());
        FilterSpec loaded = input("{\"f\": {\"kind\": \"loaded\", \"data\": \"ff\", \"hashFuncs\": 1, \"tweak\": 0, \"flags\": 255}}")
                .filter("f");
        assertEquals(1, loaded.data().length);
        assertEquals(255, loaded.flags());
        assertThrows(IllegalArgumentException.class,
                () -> input("{\"f\": {\"kind\": \"sized\", \"nElements\": 3, \"fpRate\": 0.5, \"tweak\": 9, \"flags\": 256}}")
                        .filter("f"));
        assertThrows(IllegalArgumentException.class, () -> input("{\"f\": {\"kind\": \"other\"}}").filter("f"));
    }

    @Test
    void readsListsAndRefusesWrongTypes() {
        Input in = input("{\"b\": [\"00\", \"\"], \"m\": [true, false], \"n\": null}");
        assertEquals(2, in.bytesList("b").size());
        assertEquals(false, in.boolList("m").get(1));
        assertThrows(IllegalArgumentException.class, () -> in.bytesList("m"));
        assertThrows(IllegalArgumentException.class, () -> in.u32("n"));
        assertThrows(IllegalArgumentException.class, () -> in.bool("missing"));
    }
}
