//! Input files read once per run: inside [`read_once`], the bytes of a file marked with
//! [`keep`] are remembered by [`crate::budget::read_input`] the first time it reads them, and
//! every later read of the same path (format detection, the loader, a command's metadata)
//! gets those bytes instead of reading the file again. So a crafted or changing file is
//! checked, sniffed and parsed as one and the same content, and a large rig costs one read.
//!
//! Per thread (the CLI runs a command on one thread); only kept paths are remembered (a rig,
//! not every texture page); everything is dropped when the outermost [`read_once`] returns.
//! Verified by the unit test below and by `sinew-cli/tests/all/hostile.rs` (each verb reads its rig
//! once).

use std::cell::RefCell;
use std::path::{Path, PathBuf};

/// What a [`read_once`] scope remembers.
#[derive(Debug, Default)]
struct Scope {
    /// Paths whose bytes are kept, with the bytes once read.
    kept: Vec<(PathBuf, Option<Vec<u8>>)>,
    /// Reads of the file system, per path, in first-read order.
    reads: Vec<(PathBuf, usize)>,
}

thread_local! {
    static SCOPE: RefCell<Option<Scope>> = const { RefCell::new(None) };
}

/// Runs `f` with kept files read once; returns its result and how many times each path was
/// read from the file system while it ran (in first-read order). Nested calls share the
/// outermost scope (and report no reads of their own).
pub fn read_once<R>(f: impl FnOnce() -> R) -> (R, Vec<(PathBuf, usize)>) {
    let outer = SCOPE.with(|s| {
        let mut s = s.borrow_mut();
        if s.is_some() {
            false
        } else {
            *s = Some(Scope::default());
            true
        }
    });
    let r = f();
    let reads = if outer {
        SCOPE
            .with(|s| s.borrow_mut().take())
            .map(|s| s.reads)
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    (r, reads)
}

/// Marks `path` to be read once in the current [`read_once`] scope (no-op outside one).
pub fn keep(path: &Path) {
    SCOPE.with(|s| {
        if let Some(scope) = s.borrow_mut().as_mut()
            && !scope.kept.iter().any(|(p, _)| p == path)
        {
            scope.kept.push((path.to_path_buf(), None));
        }
    });
}

/// Whether `path` is kept in the current scope (so reading it whole costs one read for
/// the whole scope).
pub fn is_kept(path: &Path) -> bool {
    SCOPE.with(|s| {
        s.borrow()
            .as_ref()
            .is_some_and(|scope| scope.kept.iter().any(|(p, _)| p == path))
    })
}

/// The bytes of `path` if it is kept and was read already in this scope.
pub(crate) fn cached(path: &Path) -> Option<Vec<u8>> {
    SCOPE.with(|s| {
        s.borrow()
            .as_ref()?
            .kept
            .iter()
            .find(|(p, _)| p == path)
            .and_then(|(_, b)| b.clone())
    })
}

/// Notes a read of `path` from the file system, remembering `bytes` when the path is kept.
pub(crate) fn note(path: &Path, bytes: &[u8]) {
    SCOPE.with(|s| {
        let mut s = s.borrow_mut();
        let Some(scope) = s.as_mut() else { return };
        match scope.reads.iter_mut().find(|(p, _)| p == path) {
            Some((_, n)) => *n += 1,
            None => scope.reads.push((path.to_path_buf(), 1)),
        }
        if let Some((_, slot)) = scope.kept.iter_mut().find(|(p, _)| p == path) {
            *slot = Some(bytes.to_vec());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_file_is_read_once_in_a_scope() {
        let dir = std::env::temp_dir().join(format!("sinew-read-once-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (rig, other) = (dir.join("rig.json"), dir.join("page.png"));
        std::fs::write(&rig, b"{}").unwrap();
        std::fs::write(&other, b"png").unwrap();
        let ((), reads) = read_once(|| {
            keep(&rig);
            for _ in 0..3 {
                assert_eq!(
                    crate::budget::read_input(&rig, "rig.json", &crate::budget::Budgets::DEFAULT)
                        .unwrap(),
                    b"{}"
                );
                assert_eq!(
                    crate::budget::read_input(&other, "page.png", &crate::budget::Budgets::DEFAULT)
                        .unwrap(),
                    b"png"
                );
            }
            // A nested scope shares the outer one.
            let ((), inner) = read_once(|| {
                crate::budget::read_input(&rig, "rig.json", &crate::budget::Budgets::DEFAULT)
                    .unwrap();
            });
            assert!(inner.is_empty());
        });
        assert_eq!(reads, vec![(rig.clone(), 1), (other.clone(), 3)]);
        // Outside a scope nothing is remembered.
        assert_eq!(cached(&rig), None);
        std::fs::remove_dir_all(&dir).ok();
    }
}
