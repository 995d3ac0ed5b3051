package bip37.bitcoinj;

import bip37.protocol.Adapter;
import bip37.protocol.FilterSpec;
import bip37.protocol.Filterload;
import bip37.protocol.Hex;
import bip37.protocol.Input;
import bip37.protocol.Library;
import bip37.protocol.Rejected;
import bip37.protocol.Stage;
import bip37.protocol.Unsupported;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.List;
import java.util.Map;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.core.VersionMessage;

/**
 * The operations of the bitcoinj adapters (adapters/bitcoinj, adapters/bitcoinj-0.16), written
 * once over {@link Api}. Every value comes from bitcoinj: its sizing constructor, its static
 * {@code BloomFilter.murmurHash3} (a bit index), {@code insert}, {@code contains}, its message
 * codec and serializers, {@code applyAndUpdate} for transactions and blocks, and {@code
 * PartialMerkleTree.buildFromLeaves}. bitcoinj has no getters for a filter's bytes, hash count or
 * tweak, so they are read back out of its own filterload serialization ({@link Filterload#parse}).
 */
public final class Operations {
    static final String NOTES = "bitcoinj is an SPV client: it has no filteradd message class (no filteradd*, no "
            + "sequence), no raw MurmurHash3 (its murmurHash3 returns a bit index: bitIndexes only) and no hash "
            + "seed function. PartialMerkleTree.getTxnHashAndMerkleRoot gives the matched txids without their "
            + "positions, so pmtExtract is left out. Sized filters: new BloomFilter(n, p, tweak, BloomUpdate), "
            + "flags 0-2 only (the enum); sizing uses UPDATE_NONE and tweak 0. Explicit and loaded filters are "
            + "filterload payloads read by BitcoinSerializer.makeBloomFilter, which applies the 36,000-byte and "
            + "50-function limits while decoding (bitcoinj has no other way to set a filter's bytes). merkleBlock's "
            + "matches are the block's transactions, in order, whose txid is among the FilteredBlock's associated "
            + "transactions (it keeps no positions).";

    private final Api api;

    private Operations(Api api) {
        this.api = api;
    }

    /** Serves the protocol with the operations of the given bitcoinj version. */
    public static void serve(Api api) {
        Operations ops = new Operations(api);
        new Adapter("bitcoinj", VersionMessage.BITCOINJ_VERSION)
                .notes(NOTES)
                .operation("sizing", ops::sizing)
                .operation("bitIndexes", ops::bitIndexes)
                .operation("buildFilter", ops::buildFilter)
                .operation("filterloadDecode", ops::filterloadDecode)
                .operation("filterloadAccept", ops::filterloadDecode)
                .operation("matchTx", ops::matchTx)
                .operation("merkleBlock", ops::merkleBlock)
                .operation("pmtBuild", ops::pmtBuild)
                .serve();
    }

    private static BloomFilter.BloomUpdate update(int flags) throws Unsupported {
        BloomFilter.BloomUpdate[] values = BloomFilter.BloomUpdate.values();
        if (flags >= values.length) {
            throw new Unsupported("bitcoinj's sizing constructor takes a BloomUpdate (flags 0-2), not flags " + flags);
        }
        return values[flags];
    }

    private static int elements(long nElements) throws Unsupported {
        if (nElements > Integer.MAX_VALUE) {
            throw new Unsupported("bitcoinj's sizing constructor takes an int element count, not " + nElements);
        }
        return (int) nElements;
    }

    private BloomFilter filter(FilterSpec spec) throws Rejected, Unsupported {
        switch (spec.kind()) {
            case SIZED: {
                int n = elements(spec.nElements());
                BloomFilter.BloomUpdate update = update(spec.flags());
                return Library.call(Stage.PARAMETERS, () -> api.sized(n, spec.fpRate(), spec.tweak(), update));
            }
            case EXPLICIT: {
                if (spec.filterBytes() > Integer.MAX_VALUE - 14) {
                    throw new Unsupported("a filter of " + spec.filterBytes() + " bytes does not fit a Java array");
                }
                byte[] payload = Filterload.encode(new byte[(int) spec.filterBytes()], spec.hashFuncs(), spec.tweak(),
                        spec.flags());
                return Library.call(Stage.PARAMETERS, () -> api.filterload(payload));
            }
            case LOADED: {
                byte[] payload = Filterload.encode(spec.data(), spec.hashFuncs(), spec.tweak(), spec.flags());
                return Library.call(Stage.PARAMETERS, () -> api.filterload(payload));
            }
            default:
                throw new IllegalStateException("unknown filter kind " + spec.kind());
        }
    }

    /** The filter's fields, read from its own serialization. */
    private Filterload fields(BloomFilter filter) throws Rejected {
        return Filterload.parse(Library.call(null, () -> api.serialize(filter)));
    }

    private void insert(BloomFilter filter, List<byte[]> elements) throws Rejected {
        for (byte[] element : elements) {
            Library.run(null, () -> filter.insert(element));
        }
    }

    private JsonObject sizing(Input in) throws Rejected, Unsupported {
        int n = elements(in.u32("nElements"));
        double p = in.fpRate("fpRate");
        BloomFilter filter = Library.call(Stage.PARAMETERS,
                () -> api.sized(n, p, 0, BloomFilter.BloomUpdate.UPDATE_NONE));
        Filterload f = fields(filter);
        JsonObject out = new JsonObject();
        out.addProperty("filterBytes", f.data().length);
        out.addProperty("hashFuncs", f.hashFuncs());
        return out;
    }

    private JsonObject bitIndexes(Input in) throws Rejected, Unsupported {
        Filterload f = fields(filter(in.filter("filter")));
        byte[] element = in.bytes("element");
        JsonArray indexes = new JsonArray();
        for (long i = 0; i < f.hashFuncs(); i++) {
            int hashNum = (int) i;
            indexes.add(Library.call(null, () -> BloomFilter.murmurHash3(f.data(), f.tweak(), hashNum, element)));
        }
        JsonObject out = new JsonObject();
        out.add("indexes", indexes);
        return out;
    }

    private JsonObject buildFilter(Input in) throws Rejected, Unsupported {
        BloomFilter filter = filter(in.filter("filter"));
        insert(filter, in.bytesList("insert"));
        JsonArray contains = new JsonArray();
        for (byte[] query : in.bytesList("queries")) {
            contains.add(Library.call(null, () -> filter.contains(query)));
        }
        JsonObject out = new JsonObject();
        out.addProperty("filterload", Hex.encode(Library.call(null, () -> api.serialize(filter))));
        out.add("contains", contains);
        return out;
    }

    private JsonObject filterloadDecode(Input in) throws Rejected {
        byte[] payload = in.bytes("payload");
        Filterload f = fields(Library.call(Stage.DECODE, () -> api.filterload(payload)));
        JsonObject out = new JsonObject();
        out.addProperty("data", Hex.encode(f.data()));
        out.addProperty("hashFuncs", f.hashFuncs());
        out.addProperty("tweak", f.tweak());
        out.addProperty("flags", f.flags());
        return out;
    }

    private JsonObject matchTx(Input in) throws Rejected, Unsupported {
        BloomFilter filter = filter(in.filter("filter"));
        insert(filter, in.bytesList("insert"));
        JsonArray matched = new JsonArray();
        for (byte[] raw : in.bytesList("txs")) {
            Transaction tx = Library.call(Stage.DECODE, () -> api.transaction(raw));
            matched.add(Library.call(null, () -> filter.applyAndUpdate(tx)));
        }
        JsonObject out = new JsonObject();
        out.add("matched", matched);
        out.addProperty("filterData", Hex.encode(fields(filter).data()));
        return out;
    }

    private JsonObject merkleBlock(Input in) throws Rejected, Unsupported {
        BloomFilter filter = filter(in.filter("filter"));
        insert(filter, in.bytesList("insert"));
        byte[] raw = in.bytes("block");
        Block block = Library.call(Stage.DECODE, () -> api.block(raw));
        FilteredBlock filtered = Library.call(null, () -> filter.applyAndUpdate(block));
        Map<?, Transaction> associated = filtered.getAssociatedTransactions();
        List<Transaction> txs = block.getTransactions();
        JsonArray matched = new JsonArray();
        for (int i = 0; i < txs.size(); i++) {
            if (associated.containsKey(txs.get(i).getTxId())) {
                JsonObject m = new JsonObject();
                m.addProperty("index", i);
                m.addProperty("txid", Hex.encode(api.txid(txs.get(i))));
                matched.add(m);
            }
        }
        JsonObject out = new JsonObject();
        out.addProperty("merkleblock", Hex.encode(Library.call(null, () -> api.serialize(filtered))));
        out.add("matched", matched);
        out.addProperty("filterData", Hex.encode(fields(filter).data()));
        return out;
    }

    private JsonObject pmtBuild(Input in) throws Rejected {
        List<byte[]> txids = in.bytesList("txids");
        List<Boolean> matches = in.boolList("matches");
        if (matches.size() != txids.size()) {
            throw new IllegalArgumentException("pmtBuild: " + txids.size() + " txids, " + matches.size() + " matches");
        }
        byte[] bits = new byte[(txids.size() + 7) / 8];
        for (int i = 0; i < matches.size(); i++) {
            if (matches.get(i)) {
                bits[i / 8] |= (byte) (1 << (i % 8));
            }
        }
        JsonObject out = new JsonObject();
        out.addProperty("pmt", Hex.encode(Library.call(null, () -> api.pmtBuild(bits, txids))));
        return out;
    }
}
