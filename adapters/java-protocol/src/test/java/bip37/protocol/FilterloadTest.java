package bip37.protocol;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The filterload byte layout, and the strict reading of a library's own bytes. */
class FilterloadTest {
    @Test
    void encodesTheVectorsExample() {
        assertEquals("03614e9b050000000000000001",
                Hex.encode(Filterload.encode(Hex.decode("614e9b"), 5, 0, 1)));
        assertEquals("fdfd00", Hex.encode(Filterload.encode(new byte[0xfd], 0xffffffffL, 7, 255)).substring(0, 6));
        assertEquals("fe00000100", Hex.encode(Filterload.encode(new byte[0x10000], 0, 0, 0)).substring(0, 10));
    }

    @Test
    void parsesWhatItEncodes() {
        Filterload f = Filterload.parse(Hex.decode("03614e9b05000000ffffffff02"));
        assertArrayEquals(Hex.decode("614e9b"), f.data());
        assertEquals(5, f.hashFuncs());
        assertEquals(0xffffffffL, f.tweak());
        assertEquals(2, f.flags());
        Filterload big = Filterload.parse(Filterload.encode(new byte[300], 1, 2, 3));
        assertEquals(300, big.data().length);
    }

    @Test
    void refusesAnythingButOneCanonicalPayload() {
        for (String bad : new String[] {"", "03614e9b0500000000000000", "03614e9b05000000000000000100",
                "fd0300614e9b050000000000000001", "ff"}) {
            assertThrows(IllegalStateException.class, () -> Filterload.parse(Hex.decode(bad)), bad);
        }
    }

    @Test
    void hexIsLowercaseWholeBytes() {
        assertEquals("00ff10", Hex.encode(Hex.decode("00ff10")));
        for (String bad : new String[] {"0", "0F", "zz", " 0"}) {
            assertThrows(IllegalArgumentException.class, () -> Hex.decode(bad), bad);
        }
    }
}
