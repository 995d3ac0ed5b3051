//! The one way the tool writes a file: expectations, reports (`--output`), the matrix, vector
//! files and regen's record all go through [`write()`], or, for files that belong together
//! (the matrix's Markdown and JSON), [`write_together`], which writes all or none.
//!
//! The new contents go to a fresh temporary file in the target's directory, are flushed to disk
//! (`fsync`), and only then renamed over the target; the directory is synced after the rename.
//! A rename within one directory is atomic, so a reader, a crash or a full disk sees the old
//! file byte for byte or the new one, never a truncated mix: on any failure the temporary file
//! is removed and the target is left as it was. A target that is a symbolic link is written
//! through (the link stays); an existing target's permissions are kept. A target that is not a
//! regular file (a device, a FIFO, a socket) is written in place, never replaced.
//!
//! [`same_file`] compares paths canonically, so a command can refuse to write over a file it
//! reads.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// Replaces the contents of `path` with `contents` atomically (see the module documentation).
/// A character device, FIFO or socket (`/dev/null`, `/dev/stdout`, a pipe's reader) is written
/// in place instead and never replaced ([`crate::special_file`]).
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(meta) if crate::special_file::is_special(&meta) => {
            crate::special_file::write(path, &meta, contents)
        }
        _ => write_with(path, |file| file.write_all(contents)),
    }
}

/// [`write`] with the temporary file filled by `fill`; an error from `fill` (or any later step)
/// leaves the target untouched.
fn write_with(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<()> {
    let staged = Staged::new(path, fill)?;
    let renamed = fs::rename(&staged.temp, &staged.target);
    staged.finish();
    renamed
}

/// Writes every `(path, contents)` or none: all the new contents go to temporary files first,
/// and only when every one is written and synced are they renamed over their targets; if a
/// rename fails, the targets already replaced get their old files back (kept meanwhile as hard
/// links beside them). So a full disk leaves the old set of files as it was, never a new file
/// beside an old one (`matrix --markdown M --json J`). A character device, FIFO or socket among
/// the paths is written in place first, as [`write`] does, and is outside the pair.
pub fn write_together(files: &[(&Path, &[u8])]) -> io::Result<()> {
    let mut regular = Vec::new();
    for (path, contents) in files {
        match fs::metadata(path) {
            Ok(meta) if crate::special_file::is_special(&meta) => {
                crate::special_file::write(path, &meta, contents)?
            }
            _ => regular.push((*path, *contents)),
        }
    }
    let mut staged = Vec::new();
    let result = (|| {
        for (path, contents) in &regular {
            staged.push(Staged::new(path, |file| file.write_all(contents))?);
        }
        rename_together(&staged)
    })();
    for file in staged {
        file.finish();
    }
    result
}

/// Renames every staged file over its target, or, on a failure, puts back the targets already
/// replaced.
fn rename_together(staged: &[Staged]) -> io::Result<()> {
    let mut backups: Vec<Option<PathBuf>> = Vec::new();
    let result = (|| {
        for file in staged {
            backups.push(file.back_up()?);
        }
        for (n, file) in staged.iter().enumerate() {
            if let Err(e) = fs::rename(&file.temp, &file.target) {
                for (done, backup) in staged[..n].iter().zip(&backups) {
                    let _ = match backup {
                        Some(backup) => fs::rename(backup, &done.target),
                        None => fs::remove_file(&done.target),
                    };
                }
                return Err(e);
            }
        }
        Ok(())
    })();
    for backup in backups.into_iter().flatten() {
        let _ = fs::remove_file(&backup);
        crate::teardown::temporary_gone(&backup);
    }
    result
}

/// New contents written and synced in a temporary file beside their target, not yet renamed.
struct Staged {
    temp: PathBuf,
    target: PathBuf,
    dir: PathBuf,
}

impl Staged {
    /// A temporary file for `path` filled by `fill` and synced; on an error it is removed.
    fn new(path: &Path, fill: impl FnOnce(&mut File) -> io::Result<()>) -> io::Result<Staged> {
        let target = resolve_link(path);
        let dir = directory_of(&target);
        let name = target
            .file_name()
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "the path names no file"))?;
        let (mut file, temp) =
            crate::teardown::create_temporary(|| create_temp(&dir, &name.to_string_lossy()))?;
        let staged = Staged { temp, target, dir };
        let filled = (|| {
            if let Ok(old) = fs::metadata(&staged.target) {
                file.set_permissions(old.permissions())?;
            }
            fill(&mut file)?;
            file.sync_all()
        })();
        match filled {
            Ok(()) => Ok(staged),
            Err(e) => {
                staged.finish();
                Err(e)
            }
        }
    }

    /// A hard link to the target's present file, to put it back with; `None` when there is none.
    fn back_up(&self) -> io::Result<Option<PathBuf>> {
        if fs::symlink_metadata(&self.target).is_err() {
            return Ok(None);
        }
        let name = self.temp.file_name().unwrap_or_default().to_string_lossy();
        let backup = self.dir.join(format!("{name}.old"));
        crate::teardown::create_temporary(|| {
            fs::hard_link(&self.target, &backup)?;
            Ok(((), backup.clone()))
        })
        .map(|((), backup)| Some(backup))
    }

    /// Removes the temporary file if it was not renamed, and syncs the directory, which makes a
    /// rename durable where the filesystem supports it (and is no failure where it does not).
    fn finish(self) {
        let _ = fs::remove_file(&self.temp);
        crate::teardown::temporary_gone(&self.temp);
        let _ = File::open(&self.dir).and_then(|d| d.sync_all());
    }
}

/// The directory a write of `path` creates its temporary file in: that of the file a symbolic
/// link points to, `.` for a bare file name.
pub(crate) fn directory_of(path: &Path) -> PathBuf {
    match resolve_link(path).parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// The file a symbolic link at `path` points to (so the link survives), or `path` itself.
fn resolve_link(path: &Path) -> PathBuf {
    match fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// A new temporary file `.<name>.<pid>.<n>.tmp` in `dir`, created exclusively.
fn create_temp(dir: &Path, name: &str) -> io::Result<(File, PathBuf)> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let temp = dir.join(format!(".{name}.{}.{n}.tmp", std::process::id()));
        match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => return Ok((file, temp)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists && n < 1000 => continue,
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("cannot create a temporary file in {}: {e}", dir.display()),
                ))
            }
        }
    }
}

/// True when `a` and `b` name the same file, compared canonically (symbolic links, `..`, a
/// relative and an absolute spelling); a file that does not exist yet is compared by its
/// canonical directory and name.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (canonical(a), canonical(b)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Refuses to write `output` when it names one of `inputs` (compared canonically): a report
/// written over a file the command reads would replace it.
pub fn refuse_overwriting<'a>(
    output: &Path,
    inputs: impl IntoIterator<Item = &'a PathBuf>,
) -> Result<(), OverwriteRefused> {
    match inputs.into_iter().find(|input| same_file(output, input)) {
        Some(input) => Err(OverwriteRefused {
            output: output.to_path_buf(),
            input: input.clone(),
        }),
        None => Ok(()),
    }
}

/// An output that names a file the command reads, refused by [`refuse_overwriting`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct OverwriteRefused {
    /// The output as given.
    pub output: PathBuf,
    /// The input it is the same file as.
    pub input: PathBuf,
}

impl std::fmt::Display for OverwriteRefused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} is the same file as the input {}: refusing to overwrite it",
            self.output.display(),
            self.input.display()
        )
    }
}

impl std::error::Error for OverwriteRefused {}

fn canonical(path: &Path) -> Option<PathBuf> {
    if let Ok(full) = fs::canonicalize(path) {
        return Some(full);
    }
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(fs::canonicalize(dir).ok()?.join(path.file_name()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 32: with room for the first file only, the new first file stood beside the old
    /// second; now neither changes, and no temporary file is left.
    #[test]
    fn files_written_together_change_together_or_not_at_all() {
        let dir = scratch("together");
        let (a, b) = (dir.join("a.md"), dir.join("b.json"));
        fs::write(&a, "old a").unwrap();
        fs::write(&b, "old b").unwrap();
        let missing = dir.join("no-such-dir/b.json");
        assert!(write_together(&[(&a, b"new a"), (&missing, b"new b")]).is_err());
        // A directory in the way: its backup (a hard link) cannot be made, so nothing moves.
        let in_the_way = dir.join("c");
        fs::create_dir(&in_the_way).unwrap();
        fs::write(in_the_way.join("x"), "").unwrap();
        assert!(write_together(&[(&a, b"new a"), (&in_the_way, b"new c")]).is_err());
        assert_eq!(fs::read_to_string(&a).unwrap(), "old a");
        let mut left: Vec<String> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["a.md", "b.json", "c"]);
        write_together(&[(&a, b"new a"), (&b, b"new b")]).unwrap();
        assert_eq!(fs::read_to_string(&a).unwrap(), "new a");
        assert_eq!(fs::read_to_string(&b).unwrap(), "new b");
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 3);
        fs::remove_dir_all(&dir).unwrap();
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("bip37-atomic-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn replaces_the_contents_and_leaves_no_temporary_file() {
        let dir = scratch("replace");
        let path = dir.join("out.txt");
        write(&path, b"first").unwrap();
        write(&path, b"second").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"second");
        assert_eq!(entries(&dir), vec!["out.txt"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_byte_for_byte() {
        let dir = scratch("fail");
        let path = dir.join("expectations.toml");
        let old = b"[failures.\"a\"]\nstate = \"wrongValue\"\nreason = \"hand-written\"\n";
        fs::write(&path, old).unwrap();
        let err = write_with(&path, |file| {
            file.write_all(b"[failures.\"a\"]\nstate = \"wro")?;
            Err(io::Error::new(
                io::ErrorKind::StorageFull,
                "injected: disk full",
            ))
        })
        .unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        assert_eq!(fs::read(&path).unwrap(), old);
        assert_eq!(entries(&dir), vec!["expectations.toml"]);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_directory_without_room_for_the_temporary_file_is_an_error() {
        let dir = scratch("nodir");
        let err = write(&dir.join("missing/out.txt"), b"x").unwrap_err();
        assert!(err.to_string().contains("temporary file"), "{err}");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_symbolic_link_is_written_through() {
        let dir = scratch("link");
        let real = dir.join("real.toml");
        fs::write(&real, "old").unwrap();
        std::os::unix::fs::symlink("real.toml", dir.join("link.toml")).unwrap();
        write(&dir.join("link.toml"), b"new").unwrap();
        assert!(fs::symlink_metadata(dir.join("link.toml"))
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read(&real).unwrap(), b"new");
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn same_file_sees_through_spellings() {
        let dir = scratch("same");
        let path = dir.join("e.toml");
        fs::write(&path, "").unwrap();
        let other_spelling = dir.join("sub/../e.toml");
        fs::create_dir_all(dir.join("sub")).unwrap();
        assert!(same_file(&path, &other_spelling));
        assert!(same_file(&dir.join("new.txt"), &dir.join("sub/../new.txt")));
        assert!(!same_file(&path, &dir.join("f.toml")));
        fs::remove_dir_all(dir).unwrap();
    }
}
