//! Compiles `core_murmur3.c` at -O2, the optimization level Core's release builds use.
fn main() {
    cc::Build::new()
        .file("core_murmur3.c")
        .opt_level(2)
        .compile("core_murmur3");
    println!("cargo:rerun-if-changed=core_murmur3.c");
}
