//! No two source files of the engine import each other, directly or round a longer circle.
//!
//! Reads every `crate::…`, `super::…` and `self::…` path in `src/**/*.rs` (comments and
//! `#[cfg(test)]` blocks left out), maps each to the file that defines the module it names,
//! and fails on every group of files that reach one another. The rule modules of the state
//! depend one way, down to the plain data (`state/mod.rs` says in what order).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Module path (as `["state", "steps"]`) of every source file under `src`.
fn module_files(src: &Path) -> BTreeMap<Vec<String>, PathBuf> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable source folder") {
            let path = entry.expect("folder entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(src).expect("under src").with_extension("");
                let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    parts.pop();
                }
                if parts.first().is_some_and(|p| p == "bin") {
                    continue;
                }
                out.insert(parts, path);
            }
        }
    }
    out
}

/// The text without comments and without what follows its first `#[cfg(test)]`.
fn code_of(text: &str) -> String {
    let text = text.find("#[cfg(test)]").map_or(text, |i| &text[..i]);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map_or("", |i| &after[i..]);
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map_or("", |i| &after[i + 2..]);
        } else {
            let c = rest.chars().next().expect("not empty");
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The module paths a file's code names, resolved against the file's own module `module`.
fn named_paths(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let is_ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (i, _) in code.match_indices("::") {
        let head_start = code[..i].rfind(|c: char| !is_ident(c)).map_or(0, |k| k + 1);
        let head = &code[head_start..i];
        let mut base: Vec<String> = match head {
            "crate" => Vec::new(),
            "super" if code[..head_start].ends_with("::") => continue,
            "super" => module[..module.len().saturating_sub(1)].to_vec(),
            "self" if code[..head_start].ends_with("::") => continue,
            "self" => module.to_vec(),
            _ => continue,
        };
        let mut rest = &code[i..];
        while let Some(after) = rest.strip_prefix("::") {
            let end = after.find(|c: char| !is_ident(c)).unwrap_or(after.len());
            if end == 0 {
                break;
            }
            match &after[..end] {
                "super" => {
                    base.pop();
                }
                name => base.push(name.to_string()),
            }
            rest = &after[end..];
        }
        out.push(base);
    }
    out
}

/// Strongly connected groups of two or more files in `edges`.
fn circles(edges: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Vec<Vec<PathBuf>> {
    struct Tarjan<'a> {
        edges: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        index: BTreeMap<&'a PathBuf, (usize, usize)>,
        stack: Vec<&'a PathBuf>,
        out: Vec<Vec<PathBuf>>,
    }
    impl<'a> Tarjan<'a> {
        fn visit(&mut self, v: &'a PathBuf) {
            let n = self.index.len();
            self.index.insert(v, (n, n));
            self.stack.push(v);
            for w in &self.edges[v] {
                let low = match self.index.get(w) {
                    None => {
                        self.visit(w);
                        self.index[w].1
                    }
                    Some(&(i, _)) if self.stack.contains(&w) => i,
                    Some(_) => continue,
                };
                let entry = self.index.get_mut(v).expect("visited");
                entry.1 = entry.1.min(low);
            }
            if self.index[v].0 == self.index[v].1 {
                let at = self.stack.iter().position(|&w| w == v).expect("on the stack");
                let group: Vec<PathBuf> = self.stack.drain(at..).cloned().collect();
                if group.len() > 1 {
                    self.out.push(group);
                }
            }
        }
    }
    let mut t = Tarjan { edges, index: BTreeMap::new(), stack: Vec::new(), out: Vec::new() };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            t.visit(v);
        }
    }
    t.out
}

#[test]
fn no_source_files_import_each_other() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let modules = module_files(&src);
    let mut edges: BTreeMap<PathBuf, BTreeSet<PathBuf>> = BTreeMap::new();
    for (module, file) in &modules {
        let code = code_of(&std::fs::read_to_string(file).expect("readable source file"));
        let targets = edges.entry(file.clone()).or_default();
        for path in named_paths(&code, module) {
            let target = (1..=path.len()).rev().find_map(|k| modules.get(&path[..k]));
            if let Some(target) = target.filter(|t| *t != file) {
                targets.insert(target.clone());
            }
        }
    }
    let found = circles(&edges);
    let names: Vec<Vec<String>> = found
        .iter()
        .map(|group| {
            let mut g: Vec<String> = group
                .iter()
                .map(|f| f.strip_prefix(&src).expect("under src").display().to_string())
                .collect();
            g.sort();
            g
        })
        .collect();
    assert!(names.is_empty(), "source files that import each other: {names:?}");
}
