// Handles on Bitcoin Core's own objects for the benches (benches/vs_core.rs): a filter, a
// transaction or a tree is built once, and each timed call is one call of Core's function on
// it, with nothing around it but the C boundary. bip37_core.cpp answers the conformance suite
// and builds its filters per call, which is right for a test and far too heavy to time.
//
// bloom.cpp is compiled into bip37_core.cpp's translation unit (its CBloomFilter::Hash is
// `inline`), so this file only includes the headers: the definitions come from there, and
// MurmurHash3, CSHA256, the transaction serialization and CPartialMerkleTree from Core's
// libraries. Compiled with the same flags as that file (build.rs).
//
// The wrappers carry `gnu::no_stack_protector`: Core's flags include -fstack-protector-all,
// which would give every wrapper a canary of its own and keep it from tail-calling Core's
// function, so Core would pay for a frame that is the shim's, not Core's. Core's functions
// themselves keep every flag Core compiled them with.

#include <common/bloom.h>
#include <crypto/sha256.h>
#include <hash.h>
#include <merkleblock.h>
#include <primitives/transaction.h>
#include <serialize.h>
#include <streams.h>

#include <cstdint>
#include <cstring>
#include <exception>
#include <span>
#include <string>
#include <vector>

namespace {

std::span<const unsigned char> Bytes(const uint8_t* data, size_t len) { return {data, len}; }

// The matched txids and their indexes, written by ExtractMatches.
struct Extracted {
    std::vector<Txid> matches;
    std::vector<unsigned int> indexes;
};

// The inputs of CPartialMerkleTree's constructor, in Core's types.
struct TreeInputs {
    std::vector<Txid> txids;
    std::vector<bool> matches;
};

} // namespace

extern "C" {

// Core's SHA256AutoDetect, as bitcoind calls it at startup (init.cpp): without it CSHA256 runs
// the portable C transform, not the SHA extensions. Writes the implementation's name
// ("x86_shani(1way;2way)" and the like) into `name` and returns its length.
size_t bip37_bench_init(char* name, size_t cap)
{
    const std::string chosen = SHA256AutoDetect();
    const size_t n = chosen.size() < cap ? chosen.size() : cap;
    std::memcpy(name, chosen.data(), n);
    return n;
}

[[gnu::no_stack_protector]] uint32_t bip37_bench_murmur3(uint32_t seed, const uint8_t* data, size_t len)
{
    return MurmurHash3(seed, Bytes(data, len));
}

// A filter from its filterload payload, read by Core's deserializer as a node reads one;
// nullptr when Core refuses it.
CBloomFilter* bip37_bench_filter_load(const uint8_t* payload, size_t len)
{
    try {
        DataStream stream{Bytes(payload, len)};
        auto filter = new CBloomFilter();
        stream >> *filter;
        return filter;
    } catch (const std::exception&) {
        return nullptr;
    }
}

// The filter serialized (its filterload payload) into `out` when it fits in `cap`; returns the
// payload's length.
size_t bip37_bench_filter_save(const CBloomFilter* filter, uint8_t* out, size_t cap)
{
    DataStream stream;
    stream << *filter;
    if (stream.size() <= cap) std::memcpy(out, stream.data(), stream.size());
    return stream.size();
}

void bip37_bench_filter_free(CBloomFilter* filter) { delete filter; }

[[gnu::no_stack_protector]] void bip37_bench_filter_insert(CBloomFilter* filter, const uint8_t* data, size_t len)
{
    filter->insert(Bytes(data, len));
}

[[gnu::no_stack_protector]] bool bip37_bench_filter_contains(const CBloomFilter* filter, const uint8_t* data, size_t len)
{
    return filter->contains(Bytes(data, len));
}

[[gnu::no_stack_protector]] bool bip37_bench_filter_is_relevant_and_update(CBloomFilter* filter, const CTransaction* tx)
{
    return filter->IsRelevantAndUpdate(*tx);
}

// A transaction decoded from its wire bytes (witness allowed) into a CMutableTransaction;
// nullptr when Core refuses them.
CMutableTransaction* bip37_bench_mtx_decode(const uint8_t* bytes, size_t len)
{
    try {
        DataStream stream{Bytes(bytes, len)};
        auto tx = new CMutableTransaction();
        stream >> TX_WITH_WITNESS(*tx);
        return tx;
    } catch (const std::exception&) {
        return nullptr;
    }
}

void bip37_bench_mtx_free(CMutableTransaction* tx) { delete tx; }

// CMutableTransaction::GetHash: the transaction serialized without witness into a HashWriter
// and double-SHA256'd, computed on every call (CTransaction caches it at construction).
[[gnu::no_stack_protector]] void bip37_bench_mtx_txid(const CMutableTransaction* tx, uint8_t* out)
{
    const Txid txid = tx->GetHash();
    std::memcpy(out, txid.begin(), 32);
}

// A CTransaction of a decoded transaction (its txid computed and kept, as a node's are).
CTransaction* bip37_bench_tx_new(const CMutableTransaction* tx) { return new CTransaction(*tx); }

void bip37_bench_tx_free(CTransaction* tx) { delete tx; }

// CPartialMerkleTree's inputs from `count` 32-byte txids (internal order) and as many flags.
TreeInputs* bip37_bench_tree_inputs(const uint8_t* txids, const uint8_t* matches, size_t count)
{
    auto inputs = new TreeInputs();
    for (size_t i = 0; i < count; ++i) {
        uint256 id;
        std::memcpy(id.begin(), txids + 32 * i, 32);
        inputs->txids.push_back(Txid::FromUint256(id));
        inputs->matches.push_back(matches[i] != 0);
    }
    return inputs;
}

void bip37_bench_tree_inputs_free(TreeInputs* inputs) { delete inputs; }

// CPartialMerkleTree(txids, matches), built and dropped as a caller that sends it would;
// returns its transaction count. Needs at least one txid (Core reads txid 0).
[[gnu::no_stack_protector]] unsigned int bip37_bench_pmt_build(const TreeInputs* inputs)
{
    const CPartialMerkleTree tree(inputs->txids, inputs->matches);
    return tree.GetNumTransactions();
}

// The same tree, kept for ExtractMatches.
CPartialMerkleTree* bip37_bench_pmt_new(const TreeInputs* inputs)
{
    return new CPartialMerkleTree(inputs->txids, inputs->matches);
}

void bip37_bench_pmt_free(CPartialMerkleTree* tree) { delete tree; }

// The tree serialized into `out` when it fits in `cap`; returns its length.
size_t bip37_bench_pmt_save(const CPartialMerkleTree* tree, uint8_t* out, size_t cap)
{
    DataStream stream;
    stream << *tree;
    if (stream.size() <= cap) std::memcpy(out, stream.data(), stream.size());
    return stream.size();
}

// ExtractMatches into fresh vectors (the root into `root`); returns how many txids matched.
size_t bip37_bench_pmt_extract(CPartialMerkleTree* tree, uint8_t* root)
{
    Extracted out;
    const uint256 hash = tree->ExtractMatches(out.matches, out.indexes);
    std::memcpy(root, hash.begin(), 32);
    return out.matches.size();
}

} // extern "C"
