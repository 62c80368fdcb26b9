//! Every `sinew` command line in README.md, docs/*.md and examples/*/README.md is run by
//! this test or checked against the tool: the ones with real files are run from the
//! workspace root (outputs redirected to a scratch folder) and their output checked (a GIF
//! against the committed image it makes, frame counts, the lint report printed in
//! docs/LINT.md after its `sinew lint ...`: line, a bench's JSON line); the synopses with placeholders (`SKEL.json`, `NAME`,
//! `[--fps N]`) have every flag they show accepted by that verb's `--help`. `sinew view`
//! lines open a window: their flags are checked here and the viewer runs in `view.rs`.
//! Commands that need the shared fixtures skip without them (fail under `CI=true`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One command line found in a document.
#[derive(Debug, Clone)]
struct DocCommand {
    /// `README.md:15`.
    at: String,
    /// The arguments after the program (`render`, `examples/...`, ...).
    args: Vec<String>,
    /// The lines of the document after the command (a report it shows).
    after: Vec<String>,
}

impl DocCommand {
    /// A synopsis: placeholders in capitals, optional parts in brackets, alternatives.
    fn is_synopsis(&self) -> bool {
        self.args.iter().any(|a| {
            a.contains('[')
                || a.contains('|')
                || a.contains("...")
                || a.split(['.', '=', ',']).next().is_some_and(|w| {
                    w.len() > 1 && w.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                })
        })
    }

    fn value(&self, flag: &str) -> Option<&str> {
        let i = self.args.iter().position(|a| a == flag)?;
        self.args.get(i + 1).map(String::as_str)
    }
}

/// The documents that show commands.
fn documents() -> Vec<PathBuf> {
    let mut docs = vec![root().join("README.md")];
    for dir in ["docs", "examples"] {
        let mut found: Vec<PathBuf> = walk(&root().join(dir))
            .into_iter()
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        found.sort();
        docs.extend(found);
    }
    docs
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// The `sinew` command lines of a document: code lines (indented or fenced) that run the
/// tool as `sinew`, `target/*/sinew` or `cargo run ... -p sinew-cli --`, continuation lines
/// joined, a trailing `# comment` dropped.
fn commands_in(doc: &Path) -> Vec<DocCommand> {
    let text = std::fs::read_to_string(doc).expect("document");
    let name = doc
        .strip_prefix(root())
        .unwrap_or(doc)
        .display()
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut fenced = false;
    let mut i = 0;
    while i < lines.len() {
        let start = i;
        let raw = lines[i];
        i += 1;
        if raw.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        // A prose line that is one code span introducing output (`sinew lint FILE`:).
        let span = raw
            .trim()
            .strip_prefix("`sinew ")
            .and_then(|r| r.strip_suffix("`:"))
            .filter(|r| !r.contains('`'));
        if !(fenced || raw.starts_with("    ") || span.is_some()) {
            continue;
        }
        let mut line = match span {
            Some(r) => format!("sinew {r}"),
            None => raw.trim().to_owned(),
        };
        while line.ends_with('\\') && i < lines.len() {
            line.pop();
            line.push(' ');
            line.push_str(lines[i].trim());
            i += 1;
        }
        let line = line.split(" #").next().unwrap_or("").trim().to_owned();
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let program = tokens
            .iter()
            .position(|t| *t == "sinew" || t.ends_with("/sinew") && t.starts_with("target/"));
        let cargo_run = line.starts_with("cargo run") && tokens.contains(&"sinew-cli");
        let args: Vec<String> = if cargo_run {
            // `cargo run --release -p sinew-cli [--features view] -- VERB ...`.
            match tokens.iter().position(|t| *t == "--") {
                Some(dash) => tokens[dash + 1..].iter().map(|t| (*t).to_owned()).collect(),
                None => continue,
            }
        } else if let Some(p) = program {
            // Only a command that runs sinew (`/usr/bin/time ... target/release/sinew`), not
            // prose or another tool naming it.
            let before = &tokens[..p];
            if !before.iter().all(|t| {
                ["/usr/bin/time", "-f", "valgrind"].contains(t)
                    || t.starts_with('"')
                    || t.ends_with('"')
                    || t.starts_with("--tool")
                    || t.starts_with("--callgrind")
                    || t.starts_with('%')
            }) || before.contains(&"valgrind")
            {
                continue;
            }
            tokens[p + 1..].iter().map(|t| (*t).to_owned()).collect()
        } else {
            continue;
        };
        if args.is_empty() || args[0].starts_with('-') && args[0] != "--help" {
            continue;
        }
        out.push(DocCommand {
            at: format!("{name}:{}", start + 1),
            args,
            after: lines[i..]
                .iter()
                .take(12)
                .map(|l| (*l).to_owned())
                .collect(),
        });
    }
    out
}

fn all_commands() -> Vec<DocCommand> {
    documents().iter().flat_map(|d| commands_in(d)).collect()
}

fn sinew(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sinew"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("the sinew binary runs")
}

/// The `--long` flags a verb's `--help` lists (with `cage`'s subcommands).
fn help_flags(verb: &[&str]) -> Vec<String> {
    let mut args: Vec<&str> = verb.to_vec();
    args.push("--help");
    let o = sinew(&args);
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    text.split(|c: char| c.is_whitespace() || c == ',' || c == '[' || c == ']')
        .filter(|w| w.starts_with("--") && w.len() > 2)
        .map(|w| w.split(['=', '<']).next().unwrap_or(w).to_owned())
        .collect()
}

/// The commands the docs show: many, every verb among them (the extraction works).
#[test]
fn the_docs_show_commands_of_every_verb() {
    let cmds = all_commands();
    for verb in [
        "render", "view", "info", "validate", "dump", "bench", "cage", "lint", "convert",
    ] {
        assert!(
            cmds.iter().any(|c| c.args[0] == verb),
            "no `sinew {verb}` found in the docs: {cmds:#?}"
        );
    }
    assert!(cmds.iter().any(|c| !c.is_synopsis()));
}

/// Every flag a documented command or synopsis uses is one its verb takes.
#[test]
fn documented_flags_exist() {
    let mut bad = Vec::new();
    let mut cache: std::collections::HashMap<String, Vec<String>> = Default::default();
    for c in all_commands() {
        let mut verb = vec![c.args[0].as_str()];
        if c.args[0] == "cage"
            && let Some(sub) = c.args.get(1).filter(|s| !s.starts_with('-'))
        {
            verb.push(sub.as_str());
        }
        let key = verb.join(" ");
        let flags = cache
            .entry(key.clone())
            .or_insert_with(|| help_flags(&verb));
        assert!(
            !flags.is_empty(),
            "{}: `sinew {key} --help` lists no flag",
            c.at
        );
        for a in &c.args {
            for f in a.split('|') {
                let f = f.trim_matches(|ch| ch == '[' || ch == ']');
                let f = f.split(['=', ' ']).next().unwrap_or(f);
                if f.starts_with("--") && f.len() > 2 && !flags.iter().any(|h| h == f) {
                    bad.push(format!("{}: `sinew {key}` has no {f}", c.at));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// A scratch folder for the outputs.
fn scratch() -> PathBuf {
    let d = std::env::temp_dir().join(format!("sinew-docs-commands-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("scratch");
    d
}

/// Runs every concrete documented command (not `view`) and checks its output.
#[test]
fn documented_commands_run_and_do_what_they_say() {
    let fixtures = sinew_testutil::fixtures_dir();
    let dir = scratch();
    let mut ran = Vec::new();
    for c in all_commands().into_iter().filter(|c| !c.is_synopsis()) {
        if c.args[0] == "view" {
            continue;
        }
        if c.args.iter().any(|a| a.starts_with("../shared/")) && fixtures.is_none() {
            sinew_testutil::require_fixtures(&format!("documented command {}", c.at));
            continue;
        }
        let mut args = c.args.clone();
        let out = c.value("--out").map(|o| {
            let committed = root().join(o);
            let name = Path::new(o).file_name().expect("a file name").to_owned();
            (committed, dir.join(name))
        });
        if let Some((_, tmp)) = &out
            && let Some(i) = args.iter().position(|a| a == "--out")
        {
            args[i + 1] = tmp.display().to_string();
        }
        let o = sinew(&args.iter().map(String::as_str).collect::<Vec<_>>());
        let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
        assert!(
            o.status.success(),
            "{}: sinew {}: {}",
            c.at,
            args.join(" "),
            String::from_utf8_lossy(&o.stderr)
        );
        check(
            &c,
            &stdout,
            out.as_ref().map(|(a, b)| (a.as_path(), b.as_path())),
        );
        ran.push(c.at.clone());
    }
    println!("ran: {}", ran.join(", "));
    assert!(ran.len() >= 6, "{ran:?}");
}

/// What each documented command must have done.
fn check(c: &DocCommand, stdout: &str, out: Option<(&Path, &Path)>) {
    match c.args[0].as_str() {
        "render" => {
            let (committed, written) = out.expect("render has --out");
            let frames = sinew_render::encode::frame_count(written).expect("an image");
            if let Some(d) = c.value("--duration") {
                let fps: f64 = c.value("--fps").unwrap_or("30").parse().expect("fps");
                let d: f64 = d.parse().expect("duration");
                assert_eq!(frames, (d * fps).round() as usize, "{}", c.at);
            } else if written.extension().is_some_and(|e| e == "gif") {
                // One loop of the animation (at least a second's worth of frames here).
                assert!(frames > 10, "{}: {frames} frames", c.at);
            }
            assert!(stdout.contains("wrote"), "{}: {stdout}", c.at);
            // A GIF the docs show: the one the command writes (regenerating a committed
            // image), or the image of that name the document embeds right after the command.
            // The same size and frames, each within a PSNR of the committed one.
            let name = written
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            let embedded = c
                .after
                .iter()
                .take(4)
                .any(|l| l.contains(&format!("images/{name})")));
            let shown = root().join("docs/images").join(&name);
            let mut images = vec![committed];
            if embedded {
                images.push(shown.as_path());
            }
            for image in images {
                if image.is_file() && image.extension().is_some_and(|e| e == "gif") {
                    let (want_size, want) = gif_frames(image);
                    let (got_size, got) = gif_frames(written);
                    assert_eq!(
                        got_size,
                        want_size,
                        "{}: size against {}",
                        c.at,
                        image.display()
                    );
                    assert_eq!(got.len(), want.len(), "{}: frames", c.at);
                    let worst = want
                        .iter()
                        .zip(&got)
                        .map(|(a, b)| psnr(a, b))
                        .fold(f64::INFINITY, f64::min);
                    println!(
                        "{}: worst frame {worst:.1} dB against {}",
                        c.at,
                        image.display()
                    );
                    assert!(
                        worst >= MIN_PSNR,
                        "{}: a frame is {worst:.1} dB from the committed {} (want >= {MIN_PSNR})",
                        c.at,
                        image.display()
                    );
                }
            }
        }
        "info" => {
            assert!(
                stdout.contains("parameters") || stdout.contains("bones"),
                "{stdout}"
            );
        }
        "lint" => {
            // The report the document prints after the command, line for line.
            let report: Vec<&str> = c
                .after
                .iter()
                .skip_while(|l| !l.starts_with("```"))
                .skip(1)
                .take_while(|l| !l.starts_with("```"))
                .map(String::as_str)
                .collect();
            assert!(!report.is_empty(), "{}: no report after the command", c.at);
            assert_eq!(stdout.lines().collect::<Vec<_>>(), report, "{}", c.at);
        }
        "bench" => {
            let last = stdout.lines().last().unwrap_or("");
            let v: serde_json::Value = serde_json::from_str(last).expect("a JSON line");
            assert!(v.is_object(), "{}: {last}", c.at);
        }
        other => panic!("{}: no check for `sinew {other}`", c.at),
    }
}

/// The least PSNR a frame of a documented GIF may have against the committed one (dB; GIF's
/// 256-colour quantising moves pixels by a few levels between renderer versions).
const MIN_PSNR: f64 = 30.0;

/// The frames of a GIF as full RGBA images (each frame drawn over the previous one).
fn gif_frames(path: &Path) -> ((u16, u16), Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let file = std::fs::File::open(path).expect("a GIF");
    let mut dec = options.read_info(file).expect("a GIF header");
    let (w, h) = (dec.width(), dec.height());
    let mut canvas = vec![0u8; usize::from(w) * usize::from(h) * 4];
    let mut frames = Vec::new();
    while let Some(f) = dec.read_next_frame().expect("a GIF frame") {
        for y in 0..usize::from(f.height) {
            for x in 0..usize::from(f.width) {
                let src = (y * usize::from(f.width) + x) * 4;
                let (cx, cy) = (x + usize::from(f.left), y + usize::from(f.top));
                if cx >= usize::from(w) || cy >= usize::from(h) || f.buffer[src + 3] == 0 {
                    continue;
                }
                let dst = (cy * usize::from(w) + cx) * 4;
                canvas[dst..dst + 4].copy_from_slice(&f.buffer[src..src + 4]);
            }
        }
        frames.push(canvas.clone());
    }
    ((w, h), frames)
}

/// PSNR of two RGBA images' colour channels, dB (infinite when equal).
fn psnr(a: &[u8], b: &[u8]) -> f64 {
    let se: f64 = a
        .chunks_exact(4)
        .zip(b.chunks_exact(4))
        .flat_map(|(p, q)| (0..3).map(move |k| (f64::from(p[k]) - f64::from(q[k])).powi(2)))
        .sum();
    let mse = se / (3 * a.len() / 4).max(1) as f64;
    10.0 * (255.0f64 * 255.0 / mse).log10()
}
