//! Compiles `core_murmur3.c` and `core_bloom.c` at -O2, the optimization level Core's release
//! builds use, as two translation units (as Core's `hash.cpp` and `bloom.cpp` are) without
//! link-time optimization, so the filter calls MurmurHash3 as Core's does.
fn main() {
    cc::Build::new()
        .file("core_murmur3.c")
        .file("core_bloom.c")
        .opt_level(2)
        .compile("core_peer");
    println!("cargo:rerun-if-changed=core_murmur3.c");
    println!("cargo:rerun-if-changed=core_bloom.c");
}
