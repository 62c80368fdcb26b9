//! The layering of sinew's top-level modules, checked from the sources.
//!
//! The design (docs/ARCHITECTURE.md, "Layers") keeps data apart from the stages that use it and
//! writes the frame order once, in `character/`. This test reads every source file reachable
//! from `lib.rs` (following `mod` declarations and `#[path]`), drops comments, string literals
//! and `#[cfg(test)]` items, and collects the code references between top-level modules:
//! `use crate::a::..`, `use crate::{a::.., b::..}`, `crate::a::` paths in expressions and
//! types, `super::` chains that reach the crate root, and the root re-exports (`crate::Rig` is
//! an edge to `rig`). Doc links are comments, so they are not edges. It then fails on any
//! cycle between top-level modules (naming the cycle and the file and line of each edge) and
//! on a data module that imports a stage.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Top-level modules that hold data only (tables, per-instance state, math): they may import
/// each other (without a cycle) but never a stage, the builder or the facade.
const DATA: &[&str] = &["ids", "types", "math", "sim", "raw", "rig", "instance"];

/// Top-level modules that are per-frame stages: they import data (and the few stage
/// functions named in docs/ARCHITECTURE.md, "Layers"), never the builder or the facade.
const STAGES: &[&str] = &[
    "anim",
    "bone",
    "skeleton",
    "constraint",
    "params",
    "deform",
    "deformer",
    "physics",
    "draw",
];

/// One code reference from a top-level module to another.
#[derive(Debug, Clone)]
struct Edge {
    from: String,
    to: String,
    /// `path:line` of the reference, relative to `src/`.
    at: String,
}

/// Blanks comments (nested block comments included), string, raw-string and char literals
/// byte for byte with spaces, keeping newlines, so offsets and line numbers still match the
/// original text.
fn strip_comments_and_literals(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'/' if b.get(i + 1) == Some(&b'/') => {
                let end = b[i..]
                    .iter()
                    .position(|&c| c == b'\n')
                    .map_or(b.len(), |p| i + p);
                blank(&mut out, i, end);
                i = end;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let (mut depth, mut j) = (1, i + 2);
                while j < b.len() && depth > 0 {
                    if b[j] == b'/' && b.get(j + 1) == Some(&b'*') {
                        depth += 1;
                        j += 2;
                    } else if b[j] == b'*' && b.get(j + 1) == Some(&b'/') {
                        depth -= 1;
                        j += 2;
                    } else {
                        j += 1;
                    }
                }
                blank(&mut out, i, j);
                i = j;
            }
            b'r' if (i == 0
                || !ident(b[i - 1])
                || (b[i - 1] == b'b' && (i < 2 || !ident(b[i - 2]))))
                && matches!(b.get(i + 1), Some(b'#') | Some(b'"')) =>
            {
                let hashes = b[i + 1..].iter().take_while(|&&c| c == b'#').count();
                if b.get(i + 1 + hashes) != Some(&b'"') {
                    i += 1;
                    continue;
                }
                let body = i + 2 + hashes;
                let close: Vec<u8> = std::iter::once(b'"')
                    .chain(std::iter::repeat_n(b'#', hashes))
                    .collect();
                let end = b[body..]
                    .windows(close.len())
                    .position(|w| w == close.as_slice())
                    .map_or(b.len(), |p| body + p + close.len());
                blank(&mut out, body, end - close.len());
                i = end;
            }
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                blank(&mut out, i + 1, j);
                i = j + 1;
            }
            b'\'' => {
                // A char literal ('x', '\n', '\'', 'é') or a lifetime ('a, 'static).
                if b.get(i + 1) == Some(&b'\\') {
                    let mut j = i + 3;
                    while j < b.len() && b[j] != b'\'' {
                        j += 1;
                    }
                    blank(&mut out, i + 1, j);
                    i = j + 1;
                } else {
                    let len = match b.get(i + 1) {
                        Some(&c) if c >= 0xF0 => 4,
                        Some(&c) if c >= 0xE0 => 3,
                        Some(&c) if c >= 0xC0 => 2,
                        _ => 1,
                    };
                    if b.get(i + 1 + len) == Some(&b'\'') {
                        blank(&mut out, i + 1, i + 1 + len);
                        i += len + 2;
                    } else {
                        i += 1;
                    }
                }
            }
            _ => i += 1,
        }
    }
    String::from_utf8(out).expect("only ASCII bytes were written over whole characters")
}

/// The end (exclusive) of the item starting at `at`: the first `;` outside brackets, or the
/// end of the first balanced `{ .. }` block, whichever comes first.
fn item_end(code: &[u8], at: usize) -> usize {
    let (mut depth, mut i) = (0i32, at);
    while i < code.len() {
        match code[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' if depth == 0 => return i + 1,
            b'{' if depth == 0 => return block_end(code, i),
            _ => {}
        }
        i += 1;
    }
    code.len()
}

/// The end (exclusive) of the balanced `{ .. }` block opening at `open`.
fn block_end(code: &[u8], open: usize) -> usize {
    let mut depth = 0;
    for (i, &c) in code.iter().enumerate().skip(open) {
        match c {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// Skips whitespace and outer attributes (`#[..]`) from `i`.
fn skip_ws_and_attrs(code: &[u8], mut i: usize) -> usize {
    loop {
        while i < code.len() && code[i].is_ascii_whitespace() {
            i += 1;
        }
        if code.get(i) == Some(&b'#') && code.get(i + 1) == Some(&b'[') {
            let (mut depth, mut j) = (0, i + 1);
            while j < code.len() {
                match code[j] {
                    b'[' => depth += 1,
                    b']' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            i = j + 1;
        } else {
            return i;
        }
    }
}

/// Blanks every item marked `#[cfg(test)]` (test modules, test-only helpers and imports).
fn strip_cfg_test(code: &str) -> String {
    let mut out = code.as_bytes().to_vec();
    let mut from = 0;
    while let Some(p) = code[from..].find("#[cfg(test)]") {
        let start = from + p;
        let item = skip_ws_and_attrs(code.as_bytes(), start);
        let end = item_end(code.as_bytes(), item);
        for c in &mut out[start..end] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
        from = end.max(start + 1);
    }
    String::from_utf8(out).expect("ASCII spaces over ASCII text")
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The identifier at `i` (after whitespace), and the offset after it.
fn ident_at(code: &[u8], mut i: usize) -> (String, usize) {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    let start = i;
    while i < code.len() && is_ident(code[i]) {
        i += 1;
    }
    (String::from_utf8_lossy(&code[start..i]).into_owned(), i)
}

/// After whitespace at `i`, `::` and the offset after it.
fn colons_at(code: &[u8], mut i: usize) -> Option<usize> {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    (code.get(i) == Some(&b':') && code.get(i + 1) == Some(&b':')).then_some(i + 2)
}

/// The first segment of every path that starts at `i` (right after `crate::`): one name, or
/// one per item of a `{ a::.., b, c::{..} }` group.
fn first_segments(code: &[u8], mut i: usize) -> Vec<String> {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    if code.get(i) != Some(&b'{') {
        let (name, _) = ident_at(code, i);
        return vec![name];
    }
    let end = block_end(code, i);
    let (mut names, mut depth, mut item_start) = (Vec::new(), 0, true);
    for j in i + 1..end - 1 {
        match code[j] {
            b'{' => depth += 1,
            b'}' => depth -= 1,
            b',' if depth == 0 => item_start = true,
            c if item_start && is_ident(c) => {
                names.push(ident_at(code, j).0);
                item_start = false;
            }
            _ => {}
        }
    }
    names
}

/// The crate's top-level modules and the root re-exports of `lib.rs` (name -> module).
struct Root {
    modules: BTreeSet<String>,
    reexports: BTreeMap<String, String>,
}

impl Root {
    /// The top-level module that `crate::<name>` refers to.
    fn resolve(&self, name: &str) -> Option<&str> {
        if self.modules.contains(name) {
            return Some(self.modules.get(name)?.as_str());
        }
        self.reexports.get(name).map(String::as_str)
    }
}

/// One source file reachable from `lib.rs`, with its module path (`["anim", "state"]`).
struct Source {
    rel: String,
    module: Vec<String>,
    /// Comments, literals and `#[cfg(test)]` items blanked.
    code: String,
}

/// Reads `lib.rs` and every module file it reaches through non-test `mod` declarations.
fn read_crate(src: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    let mut todo = vec![(src.join("lib.rs"), Vec::<String>::new(), true)];
    while let Some((file, module, owns_dir)) = todo.pop() {
        let text = std::fs::read_to_string(&file)
            .unwrap_or_else(|e| panic!("reading {}: {e}", file.display()));
        let code = strip_cfg_test(&strip_comments_and_literals(&text));
        let dir = file.parent().expect("a file has a directory").to_path_buf();
        // Children of `a/b.rs` live in `a/b/`; of `a/mod.rs` and `lib.rs` in `a/`.
        let child_dir = if owns_dir {
            dir.clone()
        } else {
            dir.join(file.file_stem().expect("a .rs file"))
        };
        for (name, at) in mod_declarations(&code) {
            let path_attr = path_attribute(&text, &code, at);
            let mut child = module.clone();
            child.push(name.clone());
            let (path, owns) = match path_attr {
                Some(p) => (dir.join(p), false),
                None if child_dir.join(format!("{name}.rs")).exists() => {
                    (child_dir.join(format!("{name}.rs")), false)
                }
                None => (child_dir.join(&name).join("mod.rs"), true),
            };
            todo.push((path, child, owns));
        }
        let rel = file
            .strip_prefix(src)
            .unwrap_or(&file)
            .display()
            .to_string();
        out.push(Source { rel, module, code });
    }
    out
}

/// `mod name;` declarations (outside blanked test code): the name and the offset of `mod`.
fn mod_declarations(code: &str) -> Vec<(String, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = code[from..].find("mod ") {
        let at = from + p;
        from = at + 4;
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let (name, after) = ident_at(b, at + 4);
        let mut j = after;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if !name.is_empty() && b.get(j) == Some(&b';') {
            out.push((name, at));
        }
    }
    out
}

/// The `#[path = ".."]` value among the attributes right before the `mod` at `at`.
fn path_attribute(text: &str, code: &str, at: usize) -> Option<String> {
    // Attributes and the visibility sit between the previous item's end and `mod`.
    let head = &code[..at];
    let start = head.rfind([';', '}', '{']).map_or(0, |p| p + 1);
    let attrs = &code[start..at];
    let p = attrs.find("#[path")?;
    let quote = text[start + p..at].find('"')? + start + p + 1;
    let close = text[quote..at].find('"')? + quote;
    Some(text[quote..close].to_string())
}

/// Inline (non-test) `mod name { .. }` blocks: their span and name, to resolve `super::`.
fn inline_modules(code: &str) -> Vec<(usize, usize, String)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = code[from..].find("mod ") {
        let at = from + p;
        from = at + 4;
        if at > 0 && is_ident(b[at - 1]) {
            continue;
        }
        let (name, after) = ident_at(b, at + 4);
        let mut j = after;
        while j < b.len() && b[j].is_ascii_whitespace() {
            j += 1;
        }
        if !name.is_empty() && b.get(j) == Some(&b'{') {
            out.push((j, block_end(b, j), name));
        }
    }
    out
}

/// Every reference in `source` to another top-level module.
fn edges_of(source: &Source, root: &Root, unresolved: &mut Vec<String>) -> Vec<Edge> {
    let b = source.code.as_bytes();
    let inline = inline_modules(&source.code);
    let line = |at: usize| 1 + b[..at].iter().filter(|&&c| c == b'\n').count();
    let mut out = Vec::new();
    let mut push = |names: Vec<String>, at: usize, unresolved: &mut Vec<String>| {
        let from = source.module.first().cloned().unwrap_or_default();
        for name in names {
            match root.resolve(&name) {
                Some(to) if to != from && !from.is_empty() => out.push(Edge {
                    from: from.clone(),
                    to: to.to_string(),
                    at: format!("{}:{}", source.rel, line(at)),
                }),
                Some(_) => {}
                None if name == "self" || from.is_empty() => {}
                None => unresolved.push(format!("{}:{}: crate::{name}", source.rel, line(at))),
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let starts_path = i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == b':' || b[i - 1] == b'$');
        if starts_path
            && b[i..].starts_with(b"crate")
            && !b.get(i + 5).is_some_and(|&c| is_ident(c))
        {
            if let Some(after) = colons_at(b, i + 5) {
                push(first_segments(b, after), i, unresolved);
            }
            i += 5;
        } else if starts_path
            && b[i..].starts_with(b"super")
            && !b.get(i + 5).is_some_and(|&c| is_ident(c))
        {
            // Count the chain `super::super::..` and resolve it from the enclosing module.
            let (mut ups, mut j) = (0, i);
            loop {
                let (word, after) = ident_at(b, j);
                match (word.as_str(), colons_at(b, after)) {
                    ("super", Some(next)) => {
                        ups += 1;
                        j = next;
                    }
                    _ => break,
                }
            }
            let depth =
                source.module.len() + inline.iter().filter(|(s, e, _)| *s < i && i < *e).count();
            if ups == depth && ups > 0 {
                push(first_segments(b, j), i, unresolved);
            }
            i = j.max(i + 5);
        } else {
            i += 1;
        }
    }
    out
}

/// The crate's top-level modules and root re-exports, read from `lib.rs` and the modules it
/// glob-re-exports (a name defined there by `struct`/`enum`/... or a macro call).
fn read_root(sources: &[Source]) -> Root {
    let lib = sources
        .iter()
        .find(|s| s.module.is_empty())
        .expect("lib.rs");
    let modules: BTreeSet<String> = mod_declarations(&lib.code)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    let mut reexports = BTreeMap::new();
    let b = lib.code.as_bytes();
    let mut from = 0;
    while let Some(p) = lib.code[from..].find("pub use ") {
        let at = from + p + 8;
        let end = at + lib.code[at..].find(';').expect("a use ends with ;");
        from = end;
        let (module, after) = ident_at(b, at);
        let rest = &lib.code[after..end];
        if rest.trim_start_matches([':', ' ']).starts_with('*') {
            for s in sources.iter().filter(|s| s.module.first() == Some(&module)) {
                for name in defined_names(&s.code) {
                    reexports.entry(name).or_insert_with(|| module.clone());
                }
            }
        } else {
            for name in rest.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if name.starts_with(|c: char| c.is_uppercase()) {
                    reexports.insert(name.to_string(), module.clone());
                }
            }
        }
    }
    Root { modules, reexports }
}

/// Names an item defines: after `struct`, `enum`, `trait`, `type`, `fn`, `const`, `static`, or
/// as the first argument of a macro call (`id_type!(BoneId(u16))`).
fn defined_names(code: &str) -> Vec<String> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    for kw in [
        "struct ", "enum ", "trait ", "type ", "fn ", "const ", "static ", "!(",
    ] {
        let mut from = 0;
        while let Some(p) = code[from..].find(kw) {
            let at = from + p;
            from = at + kw.len();
            if kw != "!(" && at > 0 && is_ident(b[at - 1]) {
                continue;
            }
            let (name, _) = ident_at(b, at + kw.len());
            if !name.is_empty() {
                out.push(name);
            }
        }
    }
    out
}

/// The code edges between top-level modules of this crate.
fn crate_edges() -> (BTreeSet<String>, Vec<Edge>) {
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src");
    let sources = read_crate(&src);
    let root = read_root(&sources);
    let mut unresolved = Vec::new();
    let edges = sources
        .iter()
        .flat_map(|s| edges_of(s, &root, &mut unresolved))
        .collect();
    assert!(
        unresolved.is_empty(),
        "crate paths the scanner cannot resolve:\n{}",
        unresolved.join("\n")
    );
    (root.modules, edges)
}

/// Module -> modules it references.
fn graph(edges: &[Edge]) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut g: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for e in edges {
        g.entry(&e.from).or_default().insert(&e.to);
    }
    g
}

/// The strongly connected components with more than one module (each holds a cycle).
fn cyclic_components<'a>(g: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<Vec<&'a str>> {
    let reach = |from: &'a str| {
        let mut seen = BTreeSet::from([from]);
        let mut todo = vec![from];
        while let Some(m) = todo.pop() {
            for &n in g.get(m).into_iter().flatten() {
                if seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    };
    let nodes: BTreeSet<&str> = g
        .keys()
        .copied()
        .chain(g.values().flatten().copied())
        .collect();
    let reaches: BTreeMap<&str, BTreeSet<&str>> = nodes.iter().map(|&n| (n, reach(n))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for &n in &nodes {
        if done.contains(n) {
            continue;
        }
        let scc: Vec<&str> = nodes
            .iter()
            .copied()
            .filter(|&m| reaches[n].contains(m) && reaches[m].contains(n))
            .collect();
        done.extend(scc.iter().copied());
        if scc.len() > 1 {
            out.push(scc);
        }
    }
    out
}

/// One concrete cycle through `start` inside its component (a shortest one, by BFS).
fn cycle_through<'a>(g: &BTreeMap<&'a str, BTreeSet<&'a str>>, start: &'a str) -> Vec<&'a str> {
    let mut prev: BTreeMap<&str, &str> = BTreeMap::new();
    let mut todo = std::collections::VecDeque::from([start]);
    while let Some(m) = todo.pop_front() {
        for &n in g.get(m).into_iter().flatten() {
            if n == start {
                let mut path = vec![m];
                while let Some(&p) = prev.get(path.last().expect("non-empty")) {
                    path.push(p);
                }
                path.reverse();
                path.push(start);
                return path;
            }
            if !prev.contains_key(n) && n != start {
                prev.insert(n, m);
                todo.push_back(n);
            }
        }
    }
    Vec::new()
}

/// A report of every cycle in `edges`, or `None` when there is none.
fn cycle_report(edges: &[Edge]) -> Option<String> {
    let g = graph(edges);
    let sccs = cyclic_components(&g);
    if sccs.is_empty() {
        return None;
    }
    let mut report = String::new();
    for scc in sccs {
        let cycle = cycle_through(&g, scc[0]);
        report += &format!(
            "modules in one cycle: {}\n  e.g. {}\n",
            scc.join(", "),
            cycle.join(" -> ")
        );
        for w in cycle.windows(2) {
            let at: Vec<&str> = edges
                .iter()
                .filter(|e| e.from == w[0] && e.to == w[1])
                .map(|e| e.at.as_str())
                .take(3)
                .collect();
            report += &format!("  {} -> {}: {}\n", w[0], w[1], at.join(", "));
        }
    }
    Some(report)
}

/// A printable graph: `module -> a, b, c` per line.
fn graph_text(modules: &BTreeSet<String>, edges: &[Edge]) -> String {
    let g = graph(edges);
    modules
        .iter()
        .map(|m| {
            let to: Vec<&str> = g.get(m.as_str()).into_iter().flatten().copied().collect();
            format!("{m} -> {}\n", to.join(", "))
        })
        .collect()
}

#[test]
fn top_level_modules_form_no_cycle() {
    let (modules, edges) = crate_edges();
    println!("{}", graph_text(&modules, &edges));
    if let Some(report) = cycle_report(&edges) {
        panic!("import cycle between top-level modules of crates/sinew/src:\n{report}");
    }
}

/// Fails naming every edge `bad` picks (with where it is) under `what`.
fn assert_no_edges(edges: &[Edge], what: &str, bad: impl Fn(&Edge) -> bool) {
    let found: Vec<String> = edges
        .iter()
        .filter(|e| bad(e))
        .map(|e| format!("{} -> {} ({})", e.from, e.to, e.at))
        .collect();
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

/// Fails when the layering names a module the crate does not have (a renamed module would
/// otherwise pass every rule unchecked).
fn assert_modules_exist<'a>(modules: &BTreeSet<String>, names: impl IntoIterator<Item = &'a str>) {
    for m in names {
        assert!(
            modules.contains(m),
            "`{m}` is named in the layering but is not a module"
        );
    }
}

#[test]
fn data_modules_import_no_stage_builder_or_facade() {
    let (modules, edges) = crate_edges();
    assert_modules_exist(&modules, DATA.iter().chain(STAGES).copied());
    assert_no_edges(
        &edges,
        "data modules import stages, the builder or the facade",
        |e| DATA.contains(&e.from.as_str()) && !DATA.contains(&e.to.as_str()),
    );
}

#[test]
fn only_the_facade_imports_the_builder_and_nothing_imports_the_facade() {
    let (modules, edges) = crate_edges();
    assert_modules_exist(&modules, ["build", "character"]);
    assert_no_edges(
        &edges,
        "the builder or the facade imported from below",
        |e| match e.to.as_str() {
            "character" => true,
            "build" => e.from != "character",
            _ => false,
        },
    );
    assert_no_edges(&edges, "stages import the builder or the facade", |e| {
        STAGES.contains(&e.from.as_str()) && ["build", "character"].contains(&e.to.as_str())
    });
}

#[test]
fn scanner_finds_paths_in_code_only() {
    let src = r##"
        //! [`crate::zeta`] in a doc link is no edge.
        use crate::{alpha::A, beta, gamma::{G, H}};
        use super::delta::D;
        /* crate::zeta::Z in a block comment /* nested */ crate::zeta */
        fn f() -> crate::epsilon::E { let s = "crate::zeta::Z"; let c = '"'; crate::Rig::x() }
        fn g<'a>(x: &'a str) -> &'a str { x }
        #[cfg(test)]
        mod tests { use crate::zeta::Z; }
        #[cfg(test)]
        use crate::zeta::Y;
        mod inner { use super::super::eta::E; }
    "##;
    let code = strip_cfg_test(&strip_comments_and_literals(src));
    let source = Source {
        rel: "omega/mod.rs".into(),
        module: vec!["omega".into()],
        code,
    };
    let root = Root {
        modules: [
            "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "omega", "rig",
        ]
        .map(String::from)
        .into(),
        reexports: BTreeMap::from([("Rig".to_string(), "rig".to_string())]),
    };
    let mut unresolved = Vec::new();
    let to: BTreeSet<String> = edges_of(&source, &root, &mut unresolved)
        .into_iter()
        .map(|e| e.to)
        .collect();
    assert!(unresolved.is_empty(), "{unresolved:?}");
    let want: BTreeSet<String> = ["alpha", "beta", "gamma", "delta", "epsilon", "eta", "rig"]
        .map(String::from)
        .into();
    assert_eq!(to, want);
}

#[test]
fn cycle_report_names_the_cycle() {
    let edge = |from: &str, to: &str| Edge {
        from: from.into(),
        to: to.into(),
        at: format!("{from}.rs:1"),
    };
    let acyclic = [edge("a", "b"), edge("b", "c"), edge("a", "c")];
    assert_eq!(cycle_report(&acyclic), None);
    let cyclic = [
        edge("a", "b"),
        edge("b", "c"),
        edge("c", "a"),
        edge("c", "d"),
    ];
    let report = cycle_report(&cyclic).expect("a -> b -> c -> a is a cycle");
    assert!(report.contains("a, b, c"), "{report}");
    assert!(report.contains("a -> b -> c -> a"), "{report}");
    assert!(report.contains("c -> a: c.rs:1"), "{report}");
}
