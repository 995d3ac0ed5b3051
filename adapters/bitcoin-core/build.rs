//! Compiles the shim (shim/bip37_core.cpp, and shim/bench.cpp for the benches) with the exact
//! flags Core compiled its `common/bloom.cpp` with (from the build's compile_commands.json) and
//! links Core's static libraries. The Core build is `BITCOIN_CORE_BUILD` when set (a configured
//! and built Core tree with compile_commands.json), otherwise `scripts/bitcoin-core.sh
//! --build`'s, which builds Core from source into its cache once (or finds that build) and
//! prints its path.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The shim's translation units: the suite's answers (it compiles Core's bloom.cpp into
/// itself) and the benches' handles (headers only, the definitions from the first and from
/// Core's libraries).
const SHIM_FILES: [&str; 2] = ["shim/bip37_core.cpp", "shim/bench.cpp"];

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = manifest.join("../..");
    for var in [
        "BITCOIN_CORE_BUILD",
        "BITCOIN_CORE_SOURCE",
        "BITCOIN_CORE_CACHE",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    for file in SHIM_FILES {
        println!("cargo:rerun-if-changed={file}");
    }
    let build = core_build(&root);
    let commands = build.join("compile_commands.json");
    println!("cargo:rerun-if-changed={}", commands.display());
    let (compiler, flags) = core_flags(&commands, "src/common/bloom.cpp");

    let mut shim = cc::Build::new();
    shim.cpp(true)
        .no_default_flags(true)
        .compiler(compiler)
        .files(SHIM_FILES);
    for flag in flags {
        shim.flag(flag);
    }
    shim.compile("bip37_core_shim");

    for dir in ["lib", "src/secp256k1/lib", "src/univalue"] {
        println!(
            "cargo:rustc-link-search=native={}",
            build.join(dir).display()
        );
    }
    // In dependency order: common (merkleblock, serialization) needs clientversion, consensus,
    // util and crypto; secp256k1 and univalue come last.
    for lib in [
        "bitcoin_common",
        "bitcoin_clientversion",
        "bitcoin_consensus",
        "bitcoin_util",
        "bitcoin_crypto",
        "secp256k1",
        "univalue",
    ] {
        println!("cargo:rustc-link-lib=static={lib}");
    }
}

/// The Core build directory.
fn core_build(root: &Path) -> PathBuf {
    if let Ok(build) = std::env::var("BITCOIN_CORE_BUILD") {
        return build.into();
    }
    let script = root.join("scripts/bitcoin-core.sh");
    let out = Command::new(&script)
        .arg("--build")
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("{} --build: {e}", script.display()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        panic!(
            "{} --build failed ({}): {stderr}",
            script.display(),
            out.status
        );
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = |key: &str| -> PathBuf {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| panic!("{} --build printed no {key} line (BITCOIND set? it names a binary, not a build): {stdout}", script.display()))
            .into()
    };
    line("BITCOIN_CORE_BUILD=")
}

/// The compiler and the flags (defines, include paths, optimisation, code generation,
/// language standard, warnings) of `file`'s entry in compile_commands.json, without its
/// input and output.
fn core_flags(commands: &Path, file: &str) -> (String, Vec<String>) {
    let text =
        std::fs::read_to_string(commands).unwrap_or_else(|e| panic!("{}: {e}", commands.display()));
    let entries: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", commands.display()));
    let command = entries
        .as_array()
        .and_then(|all| {
            all.iter()
                .find(|e| e["file"].as_str().is_some_and(|f| f.ends_with(file)))
        })
        .and_then(|e| e["command"].as_str())
        .unwrap_or_else(|| panic!("{}: no entry for {file}", commands.display()));
    let words = shlex::split(command)
        .unwrap_or_else(|| panic!("{file}: its command does not split: {command}"));
    let mut words = words.into_iter();
    let compiler = words.next().expect("a compiler");
    let mut flags = Vec::new();
    while let Some(word) = words.next() {
        match word.as_str() {
            "-o" | "-c" => {
                words.next();
            }
            _ => flags.push(word),
        }
    }
    (compiler, flags)
}
