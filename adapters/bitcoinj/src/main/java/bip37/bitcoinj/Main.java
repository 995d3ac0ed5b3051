package bip37.bitcoinj;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.bitcoinj.base.BitcoinNetwork;
import org.bitcoinj.base.Sha256Hash;
import org.bitcoinj.core.BitcoinSerializer;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.PartialMerkleTree;
import org.bitcoinj.core.Transaction;

/** The bitcoinj adapter for bitcoinj 0.17 (ByteBuffer readers, org.bitcoinj.base.Sha256Hash). */
public final class Main implements Api {
    private final BitcoinSerializer codec = new BitcoinSerializer(BitcoinNetwork.MAINNET);

    @Override
    public BloomFilter sized(int elements, double falsePositiveRate, long tweak, BloomFilter.BloomUpdate update) {
        return new BloomFilter(elements, falsePositiveRate, (int) tweak, update);
    }

    @Override
    public BloomFilter filterload(byte[] payload) throws Exception {
        return (BloomFilter) codec.makeBloomFilter(ByteBuffer.wrap(payload));
    }

    @Override
    public Transaction transaction(byte[] raw) throws Exception {
        return codec.makeTransaction(ByteBuffer.wrap(raw));
    }

    @Override
    public Block block(byte[] raw) throws Exception {
        return codec.makeBlock(ByteBuffer.wrap(raw));
    }

    @Override
    public byte[] txid(Transaction tx) {
        return tx.getTxId().serialize();
    }

    @Override
    public byte[] serialize(BloomFilter filter) {
        return filter.serialize();
    }

    @Override
    public byte[] serialize(FilteredBlock block) {
        return block.serialize();
    }

    @Override
    public byte[] pmtBuild(byte[] includeBits, List<byte[]> txids) {
        List<Sha256Hash> leaves = new ArrayList<>(txids.size());
        for (byte[] txid : txids) {
            leaves.add(Sha256Hash.wrapReversed(txid));
        }
        return PartialMerkleTree.buildFromLeaves(includeBits, leaves).serialize();
    }

    public static void main(String[] args) {
        Operations.serve(new Main());
    }
}
