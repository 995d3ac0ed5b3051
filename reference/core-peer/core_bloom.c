/* Bitcoin Core's CBloomFilter::Hash, insert and contains (src/common/bloom.cpp) in C, in the
 * shape Core's are: one hash function at a time, each a call of MurmurHash3, which Core keeps
 * in another translation unit (src/hash.cpp) and this crate in core_murmur3.c, so that neither
 * is inlined; the index is the hash modulo the bit count taken as a size_t (vData.size() * 8),
 * a 64-bit division; bits least significant first; contains returns at the first clear bit;
 * an empty filter inserts nothing and contains everything. Written from that description. */
#include <stddef.h>
#include <stdint.h>

uint32_t core_murmur3(uint32_t seed, const unsigned char *data, size_t len);

/* vData (its bytes and their count), nHashFuncs and nTweak. */
struct core_bloom {
    unsigned char *data;
    size_t size;
    uint32_t hash_funcs;
    uint32_t tweak;
};

static uint32_t core_bloom_hash(const struct core_bloom *f, uint32_t i, const unsigned char *key,
                                size_t len) {
    return (uint32_t)(core_murmur3(i * 0xFBA4C795u + f->tweak, key, len) % (f->size * 8));
}

void core_bloom_insert(struct core_bloom *f, const unsigned char *key, size_t len) {
    if (f->size == 0)
        return;
    for (uint32_t i = 0; i < f->hash_funcs; ++i) {
        uint32_t index = core_bloom_hash(f, i, key, len);
        f->data[index >> 3] |= (unsigned char)(1 << (7 & index));
    }
}

int core_bloom_contains(const struct core_bloom *f, const unsigned char *key, size_t len) {
    if (f->size == 0)
        return 1;
    for (uint32_t i = 0; i < f->hash_funcs; ++i) {
        uint32_t index = core_bloom_hash(f, i, key, len);
        if (!(f->data[index >> 3] & (1 << (7 & index))))
            return 0;
    }
    return 1;
}
