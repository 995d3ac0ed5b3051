package bip37.protocol;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonPrimitive;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A request's {@code input} object, read field by field with the protocol's types (hex bytes,
 * u32 numbers, fpRate). A field that is missing or of another type is the harness's request
 * not being what this adapter understands: an {@link IllegalArgumentException}, which stops the
 * loop as a crash, never a rejection.
 */
public final class Input {
    private final JsonObject fields;

    public Input(JsonObject fields) {
        this.fields = fields;
    }

    private JsonElement field(String name) {
        JsonElement value = fields.get(name);
        if (value == null || value.isJsonNull()) {
            throw new IllegalArgumentException("input has no field `" + name + "`: " + fields);
        }
        return value;
    }

    private static JsonPrimitive primitive(String name, JsonElement value) {
        if (!value.isJsonPrimitive()) {
            throw new IllegalArgumentException("`" + name + "` is not a JSON primitive: " + value);
        }
        return value.getAsJsonPrimitive();
    }

    private static String string(String name, JsonElement value) {
        JsonPrimitive p = primitive(name, value);
        if (!p.isString()) {
            throw new IllegalArgumentException("`" + name + "` is not a string: " + value);
        }
        return p.getAsString();
    }

    private static long integer(String name, JsonElement value, long max) {
        JsonPrimitive p = primitive(name, value);
        if (!p.isNumber()) {
            throw new IllegalArgumentException("`" + name + "` is not a number: " + value);
        }
        long n;
        try {
            n = new BigDecimal(p.getAsString()).longValueExact();
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("`" + name + "` is not an integer: " + value, e);
        }
        if (n < 0 || n > max) {
            throw new IllegalArgumentException("`" + name + "` is not in 0.." + max + ": " + value);
        }
        return n;
    }

    /** Whether the input has the field (an optional one). */
    public boolean has(String name) {
        return fields.has(name) && !fields.get(name).isJsonNull();
    }

    /** A string field. */
    public String string(String name) {
        return string(name, field(name));
    }

    /** A hex field as bytes. */
    public byte[] bytes(String name) {
        return Hex.decode(string(name));
    }

    /** A u32 field (0 to 4294967295). */
    public long u32(String name) {
        return integer(name, field(name), 0xffffffffL);
    }

    /** A one-byte field (0 to 255). */
    public int u8(String name) {
        return (int) integer(name, field(name), 0xff);
    }

    /** A boolean field. */
    public boolean bool(String name) {
        JsonPrimitive p = primitive(name, field(name));
        if (!p.isBoolean()) {
            throw new IllegalArgumentException("`" + name + "` is not a boolean: " + p);
        }
        return p.getAsBoolean();
    }

    /** A false-positive rate: a number, or one of "NaN", "Infinity", "-Infinity". */
    public double fpRate(String name) {
        JsonPrimitive p = primitive(name, field(name));
        if (p.isNumber()) {
            return Double.parseDouble(p.getAsString());
        }
        switch (string(name, p)) {
            case "NaN":
                return Double.NaN;
            case "Infinity":
                return Double.POSITIVE_INFINITY;
            case "-Infinity":
                return Double.NEGATIVE_INFINITY;
            default:
                throw new IllegalArgumentException("`" + name + "` is not a number, NaN or ±Infinity: " + p);
        }
    }

    /** An object field. */
    public Input object(String name) {
        JsonElement value = field(name);
        if (!value.isJsonObject()) {
            throw new IllegalArgumentException("`" + name + "` is not an object: " + value);
        }
        return new Input(value.getAsJsonObject());
    }

    /** A filter description field ("sized", "explicit" or "loaded"). */
    public FilterSpec filter(String name) {
        return FilterSpec.of(object(name));
    }

    private <T> List<T> list(String name, Function<JsonElement, T> item) {
        JsonElement value = field(name);
        if (!value.isJsonArray()) {
            throw new IllegalArgumentException("`" + name + "` is not an array: " + value);
        }
        JsonArray array = value.getAsJsonArray();
        List<T> items = new ArrayList<>(array.size());
        for (JsonElement e : array) {
            items.add(item.apply(e));
        }
        return items;
    }

    /** An array of hex strings, as bytes. */
    public List<byte[]> bytesList(String name) {
        return list(name, e -> Hex.decode(string(name, e)));
    }

    /** An array of booleans. */
    public List<Boolean> boolList(String name) {
        return list(name, e -> {
            JsonPrimitive p = primitive(name, e);
            if (!p.isBoolean()) {
                throw new IllegalArgumentException("`" + name + "` holds a non-boolean: " + e);
            }
            return p.getAsBoolean();
        });
    }

    @Override
    public String toString() {
        return fields.toString();
    }
}
