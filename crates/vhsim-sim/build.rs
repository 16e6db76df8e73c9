//! Names the build by its sources: the digest of every Rust source of the workspace's crates,
//! their manifests and the lock file (which pins the dependencies, the random streams' among
//! them) becomes part of [`VERSION`](crate::VERSION). A campaign keys its runs by that version
//! (docs/campaigns.md "Versions"), so a build whose code differs is another version: its runs are
//! never mixed with, nor resumed from, those of a build that could simulate differently, even
//! when the package version number is the same.
//!
//! The digest reads the files' bytes with line endings normalized (a checkout with CRLF names the
//! same build), in the order of their paths relative to the workspace root, each preceded by its
//! path: the same on every machine. Tests and benches are left out: they change no result.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let root = manifest.join("..").join("..");
    let mut files = vec![root.join("Cargo.lock"), root.join("Cargo.toml")];
    let crates = root.join("crates");
    let mut crate_dirs: Vec<PathBuf> = read_dir_sorted(&crates).into_iter().filter(|p| p.is_dir()).collect();
    crate_dirs.sort();
    for dir in &crate_dirs {
        files.push(dir.join("Cargo.toml"));
        collect_rs(&dir.join("src"), &mut files);
        println!("cargo:rerun-if-changed={}", dir.join("src").display());
        println!("cargo:rerun-if-changed={}", dir.join("Cargo.toml").display());
    }
    println!("cargo:rerun-if-changed={}", root.join("Cargo.lock").display());
    println!("cargo:rerun-if-changed={}", root.join("Cargo.toml").display());

    let mut named: Vec<(String, PathBuf)> = files
        .into_iter()
        .filter(|p| p.is_file())
        .map(|p| (relative(&root, &p), p))
        .collect();
    named.sort();
    let mut bytes = Vec::new();
    for (name, path) in &named {
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
        let text = fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        bytes.extend(normalized(&text));
        bytes.push(0);
    }
    let digest = xxhash_rust::xxh3::xxh3_128(&bytes);
    println!("cargo:rustc-env=VHSIM_SOURCE_DIGEST={:012x}", digest >> 80);
}

fn read_dir_sorted(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = fs::read_dir(dir)
        .map(|it| it.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    out.sort();
    out
}

fn collect_rs(dir: &Path, out: &mut Vec<PathBuf>) {
    for path in read_dir_sorted(dir) {
        if path.is_dir() {
            collect_rs(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The path relative to the workspace root with `/` separators.
fn relative(root: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The bytes with every CRLF turned into LF.
fn normalized(text: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        if text[i] == b'\r' && text.get(i + 1) == Some(&b'\n') {
            i += 1;
            continue;
        }
        out.push(text[i]);
        i += 1;
    }
    out
}
