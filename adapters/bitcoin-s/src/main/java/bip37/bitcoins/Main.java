package bip37.bitcoins;

import bip37.protocol.Adapter;
import bip37.protocol.FilterSpec;
import bip37.protocol.Hex;
import bip37.protocol.Input;
import bip37.protocol.Library;
import bip37.protocol.Rejected;
import bip37.protocol.Stage;
import bip37.protocol.Unsupported;
import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.bitcoins.core.bloom.BloomFilter;
import org.bitcoins.core.bloom.BloomFilter$;
import org.bitcoins.core.bloom.BloomFlag;
import org.bitcoins.core.bloom.BloomFlag$;
import org.bitcoins.core.number.UInt32;
import org.bitcoins.core.number.UInt32$;
import org.bitcoins.core.number.UInt64$;
import org.bitcoins.core.p2p.FilterAddMessage$;
import org.bitcoins.core.p2p.FilterLoadMessage$;
import org.bitcoins.core.protocol.CompactSizeUInt$;
import org.bitcoins.core.protocol.blockchain.Block;
import org.bitcoins.core.protocol.blockchain.Block$;
import org.bitcoins.core.protocol.blockchain.BlockHeader;
import org.bitcoins.core.protocol.blockchain.BlockHeader$;
import org.bitcoins.core.protocol.blockchain.MerkleBlock;
import org.bitcoins.core.protocol.blockchain.MerkleBlock$;
import org.bitcoins.core.protocol.blockchain.PartialMerkleTree;
import org.bitcoins.core.protocol.blockchain.PartialMerkleTree$;
import org.bitcoins.core.protocol.transaction.Transaction;
import org.bitcoins.core.protocol.transaction.Transaction$;
import org.bitcoins.crypto.DoubleSha256Digest;
import org.bitcoins.crypto.DoubleSha256Digest$;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;
import scodec.bits.ByteVector;
import scodec.bits.ByteVector$;

/**
 * The bitcoin-s adapter: org.bitcoin-s:bitcoin-s-core_2.13 called from Java through its Scala
 * companion objects ({@code X$.MODULE$}). Every value comes from bitcoin-s: {@code
 * BloomFilter.apply} (sizing, and a filter of given bytes), {@code insert}, {@code contains},
 * {@code bytes} (RawBloomFilterSerializer), the p2p message codecs {@code
 * FilterLoadMessage.fromBytes} and {@code FilterAddMessage.fromBytes}, {@code isRelevant} then
 * {@code update} per transaction (the order bitcoin-s's own MerkleBlock.apply uses), {@code
 * MerkleBlock.apply(block, filter)} and {@code PartialMerkleTree.apply(matches)}.
 */
public final class Main {
    static final String NOTES = "bitcoin-s keeps its MurmurHash3 bit index private (no murmur3, hashSeed, "
            + "bitIndexes) and hands filters to no node (no sequence). Its PartialMerkleTree has no "
            + "serializer of its own: pmtBuild is the tail of MerkleBlock.bytes after an all-zero 80-byte "
            + "header (RawMerkleBlockSerializer), and extractMatches gives txids without positions, so "
            + "pmtExtract is left out; merkleBlock's matches are the block's transactions whose txid is "
            + "among extractMatches. filterloadDecode is BloomFilter.fromBytes (RawBloomFilterSerializer), "
            + "filterloadAccept FilterLoadMessage.fromBytes (its 36,000-byte and 50-function checks); "
            + "filteraddDecode is FilterAddMessage.fromBytes, and bitcoin-s has no 520-byte check to "
            + "accept with (no filteraddAccept). Sized filters: BloomFilter(n, p, tweak, BloomFlag), "
            + "flags 0-2 only (BloomFlag); sizing uses BloomUpdateNone and tweak 0. Explicit and loaded "
            + "filters: BloomFilter(CompactSizeUInt, data, hashFuncs, tweak, BloomFlag(flags)). matchTx "
            + "answers isRelevant(tx), then updates with update(tx), as MerkleBlock.apply does.";

    private Main() {}

    private static ByteVector bytes(byte[] b) {
        return ByteVector$.MODULE$.apply(b);
    }

    private static UInt32 u32(long n) {
        return UInt32$.MODULE$.apply(n);
    }

    private static int elements(long nElements) throws Unsupported {
        if (nElements > Integer.MAX_VALUE) {
            throw new Unsupported("bitcoin-s's sizing apply takes an Int element count, not " + nElements);
        }
        return (int) nElements;
    }

    private static BloomFilter filter(FilterSpec spec) throws Rejected, Unsupported {
        switch (spec.kind()) {
            case SIZED: {
                int n = elements(spec.nElements());
                if (spec.flags() > 2) {
                    throw new Unsupported("BloomFlag has no value for flags " + spec.flags());
                }
                return Library.call(Stage.PARAMETERS, () -> BloomFilter$.MODULE$.apply(n, spec.fpRate(),
                        u32(spec.tweak()), BloomFlag$.MODULE$.apply((byte) spec.flags())));
            }
            case EXPLICIT:
                if (spec.filterBytes() > Integer.MAX_VALUE) {
                    throw new Unsupported("a filter of " + spec.filterBytes() + " bytes does not fit a Java array");
                }
                return loaded(new byte[(int) spec.filterBytes()], spec);
            case LOADED:
                return loaded(spec.data(), spec);
            default:
                throw new IllegalStateException("unknown filter kind " + spec.kind());
        }
    }

    private static BloomFilter loaded(byte[] data, FilterSpec spec) throws Rejected {
        return Library.call(Stage.PARAMETERS, () -> {
            BloomFlag flag = BloomFlag$.MODULE$.apply((byte) spec.flags());
            return BloomFilter$.MODULE$.apply(CompactSizeUInt$.MODULE$.apply(UInt64$.MODULE$.apply(data.length)),
                    bytes(data), u32(spec.hashFuncs()), u32(spec.tweak()), flag);
        });
    }

    private static BloomFilter insert(BloomFilter filter, List<byte[]> elements) throws Rejected {
        BloomFilter f = filter;
        for (byte[] element : elements) {
            BloomFilter before = f;
            f = Library.call(null, () -> before.insert(bytes(element)));
        }
        return f;
    }

    private static String filterData(BloomFilter filter) throws Rejected {
        return Hex.encode(Library.call(null, () -> filter.data().toArray()));
    }

    private static JsonObject sizing(Input in) throws Rejected, Unsupported {
        int n = elements(in.u32("nElements"));
        double p = in.fpRate("fpRate");
        BloomFilter filter = Library.call(Stage.PARAMETERS,
                () -> BloomFilter$.MODULE$.apply(n, p, u32(0), BloomFlag$.MODULE$.apply((byte) 0)));
        JsonObject out = new JsonObject();
        out.addProperty("filterBytes", Library.call(null, () -> filter.filterSize().num().toLong()));
        out.addProperty("hashFuncs", Library.call(null, () -> filter.hashFuncs().toLong()));
        return out;
    }

    private static JsonObject buildFilter(Input in) throws Rejected, Unsupported {
        BloomFilter filter = insert(filter(in.filter("filter")), in.bytesList("insert"));
        JsonArray contains = new JsonArray();
        for (byte[] query : in.bytesList("queries")) {
            contains.add(Library.call(null, () -> filter.contains(bytes(query))));
        }
        JsonObject out = new JsonObject();
        out.addProperty("filterload", Hex.encode(Library.call(null, () -> filter.bytes().toArray())));
        out.add("contains", contains);
        return out;
    }

    private static JsonObject filterloadFields(BloomFilter f) throws Rejected {
        JsonObject out = new JsonObject();
        out.addProperty("data", filterData(f));
        out.addProperty("hashFuncs", Library.call(null, () -> f.hashFuncs().toLong()));
        out.addProperty("tweak", Library.call(null, () -> f.tweak().toLong()));
        // BloomFlag's `byte` is a Java keyword: the flags byte is read where RawBloomFilterSerializer
        // writes it, last.
        byte[] serialized = Library.call(null, () -> f.bytes().toArray());
        out.addProperty("flags", serialized[serialized.length - 1] & 0xff);
        return out;
    }

    private static JsonObject filterloadDecode(Input in) throws Rejected {
        byte[] payload = in.bytes("payload");
        return filterloadFields(Library.call(Stage.DECODE, () -> BloomFilter$.MODULE$.fromBytes(bytes(payload))));
    }

    private static JsonObject filterloadAccept(Input in) throws Rejected {
        byte[] payload = in.bytes("payload");
        return filterloadFields(Library.call(Stage.DECODE,
                () -> FilterLoadMessage$.MODULE$.fromBytes(bytes(payload)).bloomFilter()));
    }

    private static JsonObject filteraddDecode(Input in) throws Rejected {
        byte[] payload = in.bytes("payload");
        byte[] element = Library.call(Stage.DECODE,
                () -> FilterAddMessage$.MODULE$.fromBytes(bytes(payload)).element().toArray());
        JsonObject out = new JsonObject();
        out.addProperty("data", Hex.encode(element));
        return out;
    }

    private static JsonObject matchTx(Input in) throws Rejected, Unsupported {
        BloomFilter filter = insert(filter(in.filter("filter")), in.bytesList("insert"));
        JsonArray matched = new JsonArray();
        for (byte[] raw : in.bytesList("txs")) {
            Transaction tx = Library.call(Stage.DECODE, () -> Transaction$.MODULE$.fromBytes(bytes(raw)));
            BloomFilter before = filter;
            matched.add(Library.call(null, () -> before.isRelevant(tx)));
            filter = Library.call(null, () -> before.update(tx));
        }
        JsonObject out = new JsonObject();
        out.add("matched", matched);
        out.addProperty("filterData", filterData(filter));
        return out;
    }

    private static JsonObject merkleBlock(Input in) throws Rejected, Unsupported {
        BloomFilter filter = insert(filter(in.filter("filter")), in.bytesList("insert"));
        byte[] raw = in.bytes("block");
        Block block = Library.call(Stage.DECODE, () -> Block$.MODULE$.fromBytes(bytes(raw)));
        Tuple2<MerkleBlock, BloomFilter> result = Library.call(null, () -> MerkleBlock$.MODULE$.apply(block, filter));
        Set<String> extracted = new HashSet<>();
        for (DoubleSha256Digest txid : CollectionConverters.asJava(
                Library.call(null, () -> result._1().partialMerkleTree().extractMatches()))) {
            extracted.add(txid.hex());
        }
        List<Transaction> txs = CollectionConverters.asJava(block.transactions());
        JsonArray matched = new JsonArray();
        for (int i = 0; i < txs.size(); i++) {
            String txid = txs.get(i).txId().hex();
            if (extracted.contains(txid)) {
                JsonObject m = new JsonObject();
                m.addProperty("index", i);
                m.addProperty("txid", txid);
                matched.add(m);
            }
        }
        JsonObject out = new JsonObject();
        out.addProperty("merkleblock", Hex.encode(Library.call(null, () -> result._1().bytes().toArray())));
        out.add("matched", matched);
        out.addProperty("filterData", filterData(result._2()));
        return out;
    }

    private static JsonObject pmtBuild(Input in) throws Rejected {
        List<byte[]> txids = in.bytesList("txids");
        List<Boolean> matches = in.boolList("matches");
        if (matches.size() != txids.size()) {
            throw new IllegalArgumentException("pmtBuild: " + txids.size() + " txids, " + matches.size() + " matches");
        }
        List<Tuple2<Object, DoubleSha256Digest>> leaves = new ArrayList<>(txids.size());
        for (int i = 0; i < txids.size(); i++) {
            byte[] txid = txids.get(i);
            leaves.add(new Tuple2<>(matches.get(i), Library.call(null,
                    () -> DoubleSha256Digest$.MODULE$.fromBytes(bytes(txid)))));
        }
        byte[] merkleblock = Library.call(null, () -> {
            PartialMerkleTree pmt = PartialMerkleTree$.MODULE$.apply(CollectionConverters.asScala(leaves).toSeq());
            BlockHeader zero = BlockHeader$.MODULE$.fromBytes(bytes(new byte[80]));
            return MerkleBlock$.MODULE$.apply(zero, pmt.transactionCount(), pmt).bytes().toArray();
        });
        byte[] pmt = new byte[merkleblock.length - 80];
        System.arraycopy(merkleblock, 80, pmt, 0, pmt.length);
        JsonObject out = new JsonObject();
        out.addProperty("pmt", Hex.encode(pmt));
        return out;
    }

    public static void main(String[] args) {
        // The version bitcoin-s-core's jar declares in its manifest (Implementation-Version).
        String version = BloomFilter.class.getPackage().getImplementationVersion();
        if (version == null) {
            throw new IllegalStateException("bitcoin-s-core's jar declares no Implementation-Version");
        }
        new Adapter("bitcoin-s", version)
                .notes(NOTES)
                .operation("sizing", Main::sizing)
                .operation("buildFilter", Main::buildFilter)
                .operation("filterloadDecode", Main::filterloadDecode)
                .operation("filterloadAccept", Main::filterloadAccept)
                .operation("filteraddDecode", Main::filteraddDecode)
                .operation("matchTx", Main::matchTx)
                .operation("merkleBlock", Main::merkleBlock)
                .operation("pmtBuild", Main::pmtBuild)
                .serve();
    }
}
