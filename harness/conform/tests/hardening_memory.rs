//! Every input is parsed within ten times its size: an expectations file of 16 MiB of nested
//! tables took 1.1 GB (67 times its size) before it was parsed table by table. The peak
//! resident set of the command (`wait4`'s rusage of that one child) is measured.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn tempdir(name: &str) -> PathBuf {
    common::tempdir(&format!("hardening-memory-{name}"))
}

/// Runs `bip37-conform ARGS`; its exit code and peak resident set in bytes.
fn peak_of(args: &[&str]) -> (i32, u64) {
    let mut child = Command::new(common::conform_binary())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value for wait4 to fill.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: wait4 on this test's own child, with valid pointers.
    assert_eq!(unsafe { libc::wait4(pid, &mut status, 0, &mut usage) }, pid);
    assert!(libc::WIFEXITED(status));
    // Reaped by wait4 already: this only lets the Child go (its result is an error).
    let _ = child.try_wait();
    // ru_maxrss is in KiB on Linux.
    (libc::WEXITSTATUS(status), usage.ru_maxrss as u64 * 1024)
}

/// A file of `size` bytes made of `line(i)` for i = 0, 1, ...
fn file_of(path: &Path, size: usize, line: impl Fn(usize) -> String) {
    let mut text = String::with_capacity(size);
    for i in 0.. {
        let next = line(i);
        if text.len() + next.len() > size {
            break;
        }
        text.push_str(&next);
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_16_mib_expectations_file_of_nested_tables_is_parsed_within_ten_times_its_size() {
    let dir = tempdir("expectations");
    let size = 16 << 20;
    type Line = Box<dyn Fn(usize) -> String>;
    let shapes: [(&str, Line); 3] = [
        (
            "nested.toml",
            Box::new(|i| format!("[failures.x{i}.a.b.c.d]\n")),
        ),
        ("tables.toml", Box::new(|i| format!("[t{i}]\n"))),
        (
            "inline.toml",
            Box::new(|i| match i {
                0 => "x = ".into(),
                _ => "{a=".into(),
            }),
        ),
    ];
    for (name, line) in shapes {
        let path = dir.join(name);
        file_of(&path, size, line);
        let (code, peak) = peak_of(&[
            "run",
            "--builtin",
            "reference",
            "--id",
            "murmur3/*",
            "--expectations",
            path.to_str().unwrap(),
        ]);
        assert_eq!(code, 2, "{name}");
        assert!(
            peak <= 10 * size as u64,
            "{name}: a peak of {} MiB for a file of {} MiB",
            peak >> 20,
            size >> 20
        );
    }
}
