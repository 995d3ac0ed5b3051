package bip37.bitcoinj;

import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.Context;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.MessageSerializer;
import org.bitcoinj.core.NetworkParameters;
import org.bitcoinj.core.PartialMerkleTree;
import org.bitcoinj.core.Sha256Hash;
import org.bitcoinj.core.Transaction;
import org.bitcoinj.params.MainNetParams;

/** The bitcoinj adapter for bitcoinj 0.16 (byte-array parsers with NetworkParameters). */
public final class Main implements Api {
    private final NetworkParameters params = MainNetParams.get();
    private final MessageSerializer codec = params.getDefaultSerializer();

    private Main() {
        // 0.16 parses a block only under a Context of its network (Context.get()); setting it up
        // is the adapter's part, so it happens here, outside any library call.
        Context.propagate(new Context(params));
    }

    @Override
    public BloomFilter sized(int elements, double falsePositiveRate, long tweak, BloomFilter.BloomUpdate update) {
        return new BloomFilter(elements, falsePositiveRate, tweak, update);
    }

    @Override
    public BloomFilter filterload(byte[] payload) throws Exception {
        return (BloomFilter) codec.makeBloomFilter(payload);
    }

    @Override
    public Transaction transaction(byte[] raw) throws Exception {
        return codec.makeTransaction(raw);
    }

    @Override
    public Block block(byte[] raw) throws Exception {
        return codec.makeBlock(raw);
    }

    @Override
    public byte[] txid(Transaction tx) {
        return tx.getTxId().getReversedBytes();
    }

    @Override
    public byte[] serialize(BloomFilter filter) {
        return filter.bitcoinSerialize();
    }

    @Override
    public byte[] serialize(FilteredBlock block) {
        return block.bitcoinSerialize();
    }

    @Override
    public byte[] pmtBuild(byte[] includeBits, List<byte[]> txids) {
        List<Sha256Hash> leaves = new ArrayList<>(txids.size());
        for (byte[] txid : txids) {
            leaves.add(Sha256Hash.wrapReversed(txid));
        }
        return PartialMerkleTree.buildFromLeaves(params, includeBits, leaves).bitcoinSerialize();
    }

    public static void main(String[] args) {
        Operations.serve(new Main());
    }
}
