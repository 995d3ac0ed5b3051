/* MurmurHash3 x86_32 as Bitcoin Core's MurmurHash3 (src/hash.cpp) computes it: 4-byte blocks
 * read little-endian, a tail of unsigned bytes combined by a fall-through switch, the byte
 * length mixed in, then the 32-bit finalizer. Written here from that description (no Core code
 * is copied) in the shape Core's is, so that a C compiler at -O2, as Core is built, produces the
 * machine code Core runs. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint32_t rotate_left(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }

uint32_t core_murmur3(uint32_t seed, const unsigned char *data, size_t len) {
    const uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
    const size_t blocks = len / 4;
    uint32_t h = seed, k;
    for (size_t i = 0; i < blocks; ++i) {
        memcpy(&k, data + 4 * i, 4); /* little-endian hosts only, as the bench checks */
        k *= c1;
        k = rotate_left(k, 15);
        k *= c2;
        h ^= k;
        h = rotate_left(h, 13);
        h = h * 5 + 0xe6546b64;
    }
    const unsigned char *tail = data + 4 * blocks;
    k = 0;
    switch (len & 3) {
    case 3:
        k ^= (uint32_t)tail[2] << 16; /* fall through */
    case 2:
        k ^= (uint32_t)tail[1] << 8; /* fall through */
    case 1:
        k ^= tail[0];
        k *= c1;
        k = rotate_left(k, 15);
        k *= c2;
        h ^= k;
    }
    h ^= (uint32_t)len;
    h ^= h >> 16;
    h *= 0x85ebca6b;
    h ^= h >> 13;
    h *= 0xc2b2ae35;
    h ^= h >> 16;
    return h;
}
