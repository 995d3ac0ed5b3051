//! The OSS-Fuzz / ClusterFuzzLite target list (`oss-fuzz-targets`, read by
//! `.clusterfuzzlite/build.sh`) agrees with `TARGETS`: every target but the mutants (which crash
//! by design) is shipped exactly once, with a dictionary that exists and parses as libFuzzer's
//! dictionary format, and a max_len. `.clusterfuzzlite/build-test.sh` checks the built `$OUT`.

use bip37_fuzz::TARGETS;
use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `(target, dictionary, max_len)` lines of `oss-fuzz-targets`.
fn listed() -> Vec<(String, String, usize)> {
    let text = fs::read_to_string(crate_dir().join("oss-fuzz-targets")).unwrap();
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(fields.len(), 3, "not `target dictionary max_len`: {line:?}");
            let max_len = fields[2].parse().expect("max_len is a number");
            (fields[0].to_string(), fields[1].to_string(), max_len)
        })
        .collect()
}

/// The value of one dictionary entry, `"..."` with `\\`, `\"` and `\xHH` escapes, or why not.
fn parse_entry(line: &str) -> Result<Vec<u8>, String> {
    let quoted = line.trim_end();
    let inner = (quoted.strip_prefix('"').and_then(|s| s.strip_suffix('"')))
        .ok_or("not a quoted string")?;
    let mut out = Vec::new();
    let mut bytes = inner.bytes();
    while let Some(b) = bytes.next() {
        match b {
            b'\\' => match bytes.next() {
                Some(b'\\') => out.push(b'\\'),
                Some(b'"') => out.push(b'"'),
                Some(b'x') => {
                    let hex: Vec<u8> = bytes.by_ref().take(2).collect();
                    let text = std::str::from_utf8(&hex).map_err(|e| e.to_string())?;
                    out.push(u8::from_str_radix(text, 16).map_err(|e| format!("\\x{text}: {e}"))?);
                }
                other => return Err(format!("unknown escape {other:?}")),
            },
            b'"' => return Err("an unescaped quote inside".into()),
            _ => out.push(b),
        }
    }
    if out.is_empty() {
        return Err("an empty entry".into());
    }
    Ok(out)
}

#[test]
fn every_target_but_the_mutants_is_shipped_once() {
    let listed: Vec<String> = listed().into_iter().map(|(t, _, _)| t).collect();
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len(), "a target is listed twice");
    let expected: BTreeSet<String> = (TARGETS.iter())
        .filter(|t| !t.name.starts_with("mutants_"))
        .map(|t| t.name.to_string())
        .collect();
    let listed: BTreeSet<String> = listed.into_iter().collect();
    assert_eq!(listed, expected, "oss-fuzz-targets and TARGETS differ");
}

#[test]
fn every_dictionary_exists_and_parses() {
    let dictionaries: BTreeSet<String> = (listed().into_iter())
        .map(|(_, d, _)| d)
        .filter(|d| d != "-")
        .collect();
    for name in &dictionaries {
        let path = crate_dir()
            .join("dictionaries")
            .join(format!("{name}.dict"));
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}.dict: {e}"));
        let entries: Vec<Vec<u8>> = (text.lines().enumerate())
            .filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty())
            .map(|(i, l)| parse_entry(l).unwrap_or_else(|e| panic!("{name}.dict:{}: {e}", i + 1)))
            .collect();
        assert!(
            entries.len() >= 5,
            "{name}.dict has {} entries",
            entries.len()
        );
        let unique: BTreeSet<&Vec<u8>> = entries.iter().collect();
        assert_eq!(unique.len(), entries.len(), "{name}.dict repeats an entry");
    }
    let on_disk: BTreeSet<String> = fs::read_dir(crate_dir().join("dictionaries"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|p| Some(p.file_stem()?.to_str()?.to_string()))
        .collect();
    assert_eq!(
        on_disk, dictionaries,
        "a dictionary file no target uses, or the reverse"
    );
}

#[test]
fn the_entry_parser_refuses_what_libfuzzer_refuses() {
    assert_eq!(parse_entry(r#""\xfd\x08\x02""#), Ok(vec![0xfd, 0x08, 0x02]));
    assert_eq!(parse_entry(r#""ab\"\\""#), Ok(b"ab\"\\".to_vec()));
    assert!(parse_entry("fd").is_err());
    assert!(parse_entry(r#""\xzz""#).is_err());
    assert!(parse_entry(r#""a"b""#).is_err());
    assert!(parse_entry(r#""""#).is_err());
}
