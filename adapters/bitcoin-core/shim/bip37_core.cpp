// The project's extern "C" shim over Bitcoin Core's own BIP 37 code (src/common/bloom.cpp,
// src/merkleblock.cpp, src/hash.cpp, Core's transaction, block and CompactSize serialization),
// compiled with the flags Core compiled those files with and linked against Core's static
// libraries. Every function calls Core's code; what the shim adds is only what the C boundary
// needs: inputs in, outputs copied out into malloc'd buffers, exceptions caught, and a refusal
// ("undefined") where Core's code would run into undefined behaviour (a division or remainder
// by zero, an out-of-range double conversion, an out-of-bounds read), since no answer made up
// there would be Core's.

// Core's own bloom.cpp, compiled into this translation unit: it defines CBloomFilter::Hash
// `inline`, so no library exports it, and the bit indexes need it. With every function of that
// file defined here, the linker never takes libbitcoin_common's copy of it.
#include <common/bloom.cpp>
#include <hash.h>
#include <merkleblock.h>
#include <net.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <streams.h>
#include <util/translation.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <span>
#include <string>
#include <vector>

// Core's libraries leave this to the program that links them (bitcoind.cpp defines it so).
const TranslateFn G_TRANSLATION_FUN{nullptr};

namespace {

// CBloomFilter keeps its bits, hash function count, tweak, flags and its Hash(i, element)
// private. An explicit template instantiation may name private members, so these accessors
// read them without changing or copying Core's class.
template <typename Tag, typename Tag::type Member>
struct Expose {
    friend typename Tag::type member(Tag) { return Member; }
};
struct DataTag {
    using type = std::vector<unsigned char> CBloomFilter::*;
    friend type member(DataTag);
};
struct HashFuncsTag {
    using type = unsigned int CBloomFilter::*;
    friend type member(HashFuncsTag);
};
struct TweakTag {
    using type = unsigned int CBloomFilter::*;
    friend type member(TweakTag);
};
struct FlagsTag {
    using type = unsigned char CBloomFilter::*;
    friend type member(FlagsTag);
};
struct HashTag {
    using type = unsigned int (CBloomFilter::*)(unsigned int, std::span<const unsigned char>) const;
    friend type member(HashTag);
};
template struct Expose<DataTag, &CBloomFilter::vData>;
template struct Expose<HashFuncsTag, &CBloomFilter::nHashFuncs>;
template struct Expose<TweakTag, &CBloomFilter::nTweak>;
template struct Expose<FlagsTag, &CBloomFilter::nFlags>;
template struct Expose<HashTag, &CBloomFilter::Hash>;

const std::vector<unsigned char>& Data(const CBloomFilter& f) { return f.*member(DataTag{}); }
unsigned int HashFuncs(const CBloomFilter& f) { return f.*member(HashFuncsTag{}); }

} // namespace

extern "C" {

// What a call answered: status 0 a value, 1 Core rejected the input (at `stage`: 0 decode,
// 1 limits, 2 parameters, 3 validation; `message` says why), 2 Core's behaviour is undefined
// for the input (`message` says which rule). The buffers are malloc'd; bip37_core_out_free
// frees them.
struct bip37_core_out {
    int32_t status;
    int32_t stage;
    uint8_t* message;
    size_t message_len;
    uint8_t* a;
    size_t a_len;
    uint8_t* b;
    size_t b_len;
    uint8_t* c;
    size_t c_len;
    uint32_t* n;
    size_t n_len;
};

// A filter as a test sets it up: kind 0 sized (CBloomFilter's constructor), 1 explicit (a
// zeroed filter of filter_bytes), 2 loaded (data). Explicit and loaded filters are read from a
// filterload payload by Core's deserializer, the way a node gets its peer's filter.
struct bip37_core_filter_init {
    int32_t kind;
    uint32_t n_elements;
    double fp_rate;
    uint32_t filter_bytes;
    const uint8_t* data;
    size_t data_len;
    uint32_t hash_funcs;
    uint32_t tweak;
    uint8_t flags;
};

// A list of byte strings.
struct bip37_core_items {
    const uint8_t* const* ptrs;
    const size_t* lens;
    size_t count;
};

void bip37_core_out_free(bip37_core_out* out)
{
    std::free(out->message);
    std::free(out->a);
    std::free(out->b);
    std::free(out->c);
    std::free(out->n);
    *out = bip37_core_out{};
}

} // extern "C"

namespace {

enum Status : int32_t { OK = 0, REJECTED = 1, UNDEFINED = 2 };
enum Stage : int32_t { DECODE = 0, LIMITS = 1, PARAMETERS = 2, VALIDATION = 3 };

// Thrown by the shim where Core's code would be undefined.
struct Undefined {
    std::string why;
};
// Thrown by the shim where Core rejects an input without an exception of its own.
struct Rejected {
    Stage stage;
    std::string why;
};

template <typename T>
void Copy(const T* from, size_t count, T** to, size_t* len)
{
    *len = count;
    *to = static_cast<T*>(std::malloc(count == 0 ? 1 : count * sizeof(T)));
    if (*to == nullptr) throw std::bad_alloc();
    if (count != 0) std::memcpy(*to, from, count * sizeof(T));
}
void SetBytes(std::span<const unsigned char> bytes, uint8_t** to, size_t* len) { Copy(bytes.data(), bytes.size(), to, len); }
void SetBytes(std::span<const std::byte> bytes, uint8_t** to, size_t* len)
{
    Copy(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), to, len);
}
void SetNumbers(const std::vector<uint32_t>& numbers, bip37_core_out* out) { Copy(numbers.data(), numbers.size(), &out->n, &out->n_len); }

// Runs `body`, turning what it throws into the out struct's status.
template <typename F>
void Answer(bip37_core_out* out, Stage decode_stage, F body)
{
    *out = bip37_core_out{};
    std::string message;
    try {
        body();
        out->status = OK;
        return;
    } catch (const Undefined& u) {
        out->status = UNDEFINED;
        message = u.why;
    } catch (const Rejected& r) {
        out->status = REJECTED;
        out->stage = r.stage;
        message = r.why;
    } catch (const std::exception& e) {
        // Core's deserializers throw std::ios_base::failure (end of data, a non-canonical or
        // oversized CompactSize, a superfluous witness record).
        out->status = REJECTED;
        out->stage = decode_stage;
        message = e.what();
    }
    const int32_t status = out->status, stage = out->stage;
    bip37_core_out_free(out);
    out->status = status;
    out->stage = stage;
    Copy(reinterpret_cast<const uint8_t*>(message.data()), message.size(), &out->message, &out->message_len);
}

std::span<const unsigned char> Bytes(const uint8_t* data, size_t len) { return {data, len}; }

// CBloomFilter(nElements, nFPRate, ...) computes (unsigned int)(-1 / LN2SQUARED * nElements *
// log(nFPRate)), then divides by nElements (src/common/bloom.cpp:26-36): undefined for
// nElements 0 and for a bit count that no unsigned int holds.
void RequireDefinedSizing(uint32_t n_elements, double fp_rate)
{
    if (n_elements == 0) throw Undefined{"nElements 0: CBloomFilter divides by it (undefined)"};
    static const double LN2SQUARED = 0.4804530139182014246671025263266649717305529515945455;
    const double bits = -1 / LN2SQUARED * n_elements * log(fp_rate);
    if (!(bits > -1.0 && bits < 4294967296.0)) {
        throw Undefined{"the bit count -n ln p / ln2^2 is NaN or outside unsigned int: CBloomFilter's cast is undefined"};
    }
}

CBloomFilter Load(std::span<const unsigned char> payload)
{
    DataStream stream{payload};
    CBloomFilter filter;
    stream >> filter;
    return filter;
}

CBloomFilter MakeFilter(const bip37_core_filter_init& init)
{
    switch (init.kind) {
    case 0:
        RequireDefinedSizing(init.n_elements, init.fp_rate);
        return CBloomFilter(init.n_elements, init.fp_rate, init.tweak, init.flags);
    case 1:
    case 2: {
        std::vector<unsigned char> data;
        if (init.kind == 1) {
            data.assign(init.filter_bytes, 0);
        } else {
            data.assign(init.data, init.data + init.data_len);
        }
        DataStream stream;
        stream << data << init.hash_funcs << init.tweak << init.flags;
        CBloomFilter filter;
        stream >> filter;
        return filter;
    }
    }
    throw Undefined{"unknown filter kind"};
}

void InsertAll(CBloomFilter& filter, const bip37_core_items& items)
{
    for (size_t i = 0; i < items.count; ++i) filter.insert(Bytes(items.ptrs[i], items.lens[i]));
}

// A transaction or block as a node reads one from the wire (witness allowed); bytes after it
// are refused, as Core's DecodeHexTx and DecodeHexBlk refuse them.
template <typename T>
T Decode(std::span<const unsigned char> bytes, const char* what)
{
    DataStream stream{bytes};
    T value;
    stream >> TX_WITH_WITNESS(value);
    if (!stream.empty()) throw Rejected{DECODE, std::string(what) + ": bytes after its end"};
    return value;
}

} // namespace

extern "C" {

uint32_t bip37_core_murmur3(uint32_t seed, const uint8_t* data, size_t len)
{
    return MurmurHash3(seed, Bytes(data, len));
}

// n: the filter's byte count and hash function count.
void bip37_core_sizing(uint32_t n_elements, double fp_rate, bip37_core_out* out)
{
    Answer(out, PARAMETERS, [&] {
        bip37_core_filter_init init{};
        init.kind = 0;
        init.n_elements = n_elements;
        init.fp_rate = fp_rate;
        const CBloomFilter filter = MakeFilter(init);
        SetNumbers({static_cast<uint32_t>(Data(filter).size()), HashFuncs(filter)}, out);
    });
}

// n: the bit index of each hash function, from Core's CBloomFilter::Hash.
void bip37_core_bit_indexes(const bip37_core_filter_init* init, const uint8_t* element, size_t len, bip37_core_out* out)
{
    Answer(out, PARAMETERS, [&] {
        const CBloomFilter filter = MakeFilter(*init);
        if (Data(filter).empty()) {
            throw Undefined{"a 0-byte filter: Hash takes a remainder by its bit count, 0 (insert and contains never call it there)"};
        }
        std::vector<uint32_t> indexes;
        for (unsigned int i = 0; i < HashFuncs(filter); ++i) {
            indexes.push_back((filter.*member(HashTag{}))(i, Bytes(element, len)));
        }
        SetNumbers(indexes, out);
    });
}

// a: the filter serialized (a filterload payload); n: contains() of each query, 0 or 1.
void bip37_core_build_filter(const bip37_core_filter_init* init, const bip37_core_items* insert, const bip37_core_items* queries, bip37_core_out* out)
{
    Answer(out, PARAMETERS, [&] {
        CBloomFilter filter = MakeFilter(*init);
        InsertAll(filter, *insert);
        DataStream stream;
        stream << filter;
        SetBytes(std::span{stream}, &out->a, &out->a_len);
        std::vector<uint32_t> contains;
        for (size_t i = 0; i < queries->count; ++i) {
            contains.push_back(filter.contains(Bytes(queries->ptrs[i], queries->lens[i])) ? 1 : 0);
        }
        SetNumbers(contains, out);
    });
}

// A filterload payload read as net_processing.cpp reads one (`vRecv >> filter`), bytes after
// the fields unread; with `accept`, then its checks: the message size limit every message has
// (MAX_PROTOCOL_MESSAGE_LENGTH) and IsWithinSizeConstraints. a: the filter's bits; n: its hash
// function count, tweak and flags.
void bip37_core_filterload(const uint8_t* payload, size_t len, int accept, bip37_core_out* out)
{
    Answer(out, DECODE, [&] {
        if (accept && len > MAX_PROTOCOL_MESSAGE_LENGTH) throw Rejected{LIMITS, "over MAX_PROTOCOL_MESSAGE_LENGTH"};
        const CBloomFilter filter = Load(Bytes(payload, len));
        if (accept && !filter.IsWithinSizeConstraints()) {
            throw Rejected{LIMITS, "not IsWithinSizeConstraints: over MAX_BLOOM_FILTER_SIZE bytes or MAX_HASH_FUNCS hash functions"};
        }
        SetBytes(Data(filter), &out->a, &out->a_len);
        SetNumbers({HashFuncs(filter), filter.*member(TweakTag{}), filter.*member(FlagsTag{})}, out);
    });
}

// A filteradd payload read as net_processing.cpp reads one (`vRecv >> vData`); with `accept`,
// the message size limit and its element limit (MAX_SCRIPT_ELEMENT_SIZE). a: the element.
void bip37_core_filteradd(const uint8_t* payload, size_t len, int accept, bip37_core_out* out)
{
    Answer(out, DECODE, [&] {
        if (accept && len > MAX_PROTOCOL_MESSAGE_LENGTH) throw Rejected{LIMITS, "over MAX_PROTOCOL_MESSAGE_LENGTH"};
        DataStream stream{Bytes(payload, len)};
        std::vector<unsigned char> data;
        stream >> data;
        if (accept && data.size() > MAX_SCRIPT_ELEMENT_SIZE) throw Rejected{LIMITS, "over MAX_SCRIPT_ELEMENT_SIZE"};
        SetBytes(data, &out->a, &out->a_len);
    });
}

// n: IsRelevantAndUpdate of each transaction in turn, 0 or 1; a: the filter's bits after them.
void bip37_core_match_tx(const bip37_core_filter_init* init, const bip37_core_items* insert, const bip37_core_items* txs, bip37_core_out* out)
{
    Answer(out, DECODE, [&] {
        std::vector<CTransaction> decoded;
        for (size_t i = 0; i < txs->count; ++i) {
            decoded.emplace_back(Decode<CMutableTransaction>(Bytes(txs->ptrs[i], txs->lens[i]), "transaction"));
        }
        CBloomFilter filter = MakeFilter(*init);
        InsertAll(filter, *insert);
        std::vector<uint32_t> matched;
        for (const CTransaction& tx : decoded) matched.push_back(filter.IsRelevantAndUpdate(tx) ? 1 : 0);
        SetNumbers(matched, out);
        SetBytes(Data(filter), &out->a, &out->a_len);
    });
}

// CMerkleBlock(block, filter). a: the merkleblock message; b: the matched txids (32 bytes
// each, internal order); n: their indexes; c: the filter's bits after it.
void bip37_core_merkle_block(const bip37_core_filter_init* init, const bip37_core_items* insert, const uint8_t* block, size_t len, bip37_core_out* out)
{
    Answer(out, DECODE, [&] {
        const CBlock decoded = Decode<CBlock>(Bytes(block, len), "block");
        if (decoded.vtx.empty()) {
            throw Undefined{"a block without transactions: CPartialMerkleTree reads txid 0 of none (out of bounds)"};
        }
        CBloomFilter filter = MakeFilter(*init);
        InsertAll(filter, *insert);
        const CMerkleBlock merkle_block(decoded, filter);
        DataStream stream;
        stream << merkle_block;
        SetBytes(std::span{stream}, &out->a, &out->a_len);
        std::vector<unsigned char> txids;
        std::vector<uint32_t> indexes;
        for (const auto& [index, txid] : merkle_block.vMatchedTxn) {
            indexes.push_back(index);
            const auto bytes = txid.ToUint256();
            txids.insert(txids.end(), bytes.begin(), bytes.end());
        }
        SetBytes(txids, &out->b, &out->b_len);
        SetNumbers(indexes, out);
        SetBytes(Data(filter), &out->c, &out->c_len);
    });
}

// CPartialMerkleTree(txids, matches), serialized. txids: 32 bytes each, internal order.
void bip37_core_pmt_build(const uint8_t* txids, size_t count, const uint8_t* matches, size_t match_count, bip37_core_out* out)
{
    Answer(out, PARAMETERS, [&] {
        if (count == 0) throw Undefined{"no txids: CPartialMerkleTree reads txid 0 of none (out of bounds)"};
        if (match_count != count) throw Undefined{"as many match flags as txids are needed: CPartialMerkleTree reads vMatch[pos] for every txid"};
        std::vector<Txid> ids;
        std::vector<bool> flags;
        for (size_t i = 0; i < count; ++i) {
            uint256 id;
            std::memcpy(id.begin(), txids + 32 * i, 32);
            ids.push_back(Txid::FromUint256(id));
            flags.push_back(matches[i] != 0);
        }
        const CPartialMerkleTree tree(ids, flags);
        DataStream stream;
        stream << tree;
        SetBytes(std::span{stream}, &out->a, &out->a_len);
    });
}

// A serialized CPartialMerkleTree read by Core, then ExtractMatches: a its root, b the matched
// txids, n their indexes. Core signals a bad tree by a null root.
void bip37_core_pmt_extract(const uint8_t* pmt, size_t len, bip37_core_out* out)
{
    Answer(out, DECODE, [&] {
        DataStream stream{Bytes(pmt, len)};
        CPartialMerkleTree tree;
        stream >> tree;
        std::vector<Txid> matches;
        std::vector<unsigned int> indexes;
        const uint256 root = tree.ExtractMatches(matches, indexes);
        if (root.IsNull()) throw Rejected{VALIDATION, "ExtractMatches found the tree malformed (a null root)"};
        SetBytes(std::span<const unsigned char>{root.begin(), root.end()}, &out->a, &out->a_len);
        std::vector<unsigned char> txids;
        for (const Txid& txid : matches) {
            const auto bytes = txid.ToUint256();
            txids.insert(txids.end(), bytes.begin(), bytes.end());
        }
        SetBytes(txids, &out->b, &out->b_len);
        SetNumbers(std::vector<uint32_t>(indexes.begin(), indexes.end()), out);
    });
}

} // extern "C"
