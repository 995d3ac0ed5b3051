package bip37.bitcoinj;

import java.util.List;
import org.bitcoinj.core.Block;
import org.bitcoinj.core.BloomFilter;
import org.bitcoinj.core.FilteredBlock;
import org.bitcoinj.core.Transaction;

/**
 * The bitcoinj calls whose signatures changed between 0.16 and 0.17 (byte arrays and
 * NetworkParameters in 0.16, ByteBuffers and static readers in 0.17, Sha256Hash moved from
 * org.bitcoinj.core to org.bitcoinj.base): each adapter directory implements this against its
 * own pinned version, and {@link Operations} does everything else once, through the classes
 * both versions share.
 */
public interface Api {
    /** {@code new BloomFilter(elements, falsePositiveRate, tweak, update)}. */
    BloomFilter sized(int elements, double falsePositiveRate, long tweak, BloomFilter.BloomUpdate update);

    /** A filterload payload through the version's message codec, {@code BitcoinSerializer.makeBloomFilter}. */
    BloomFilter filterload(byte[] payload) throws Exception;

    /** A transaction through {@code BitcoinSerializer.makeTransaction}. */
    Transaction transaction(byte[] raw) throws Exception;

    /** A block through {@code BitcoinSerializer.makeBlock}. */
    Block block(byte[] raw) throws Exception;

    /** The transaction's txid in internal byte order (its serialization, not its display order). */
    byte[] txid(Transaction tx);

    /** The filter's filterload payload, by its own serializer. */
    byte[] serialize(BloomFilter filter) throws Exception;

    /** The merkleblock payload, by the FilteredBlock's own serializer. */
    byte[] serialize(FilteredBlock block) throws Exception;

    /**
     * The serialized {@code PartialMerkleTree.buildFromLeaves(includeBits, txids)}, txids in
     * internal byte order.
     */
    byte[] pmtBuild(byte[] includeBits, List<byte[]> txids) throws Exception;
}
