//! `sinew render` streams its frames (`sinew_cli::stream`): the heap it holds at its peak does
//! not grow with the frame count. A crafted skeleton with one large mesh (a 60 x 60 vertex
//! grid, about 100 KB of draw list a frame) is rendered in-process to a GIF of 20 frames and
//! of 400 frames; the peak of live heap bytes over every thread (the counting allocator of
//! sinew-testutil) must be within a few frames' worth of each other, where holding every
//! frame's draw list would add about 40 MB. The test runs in a process of its own
//! (`run_alone`): the measure counts every thread of the process.

use clap::Parser;
use sinew_testutil::alloc::peak_bytes;
use std::fmt::Write as _;

/// A skeleton with a `grid x grid` vertex mesh on a bone that turns once a second.
fn mesh_rig(grid: usize) -> String {
    let (mut uvs, mut verts, mut tris) = (String::new(), String::new(), String::new());
    for j in 0..grid {
        for i in 0..grid {
            let (u, v) = (i as f64 / (grid - 1) as f64, j as f64 / (grid - 1) as f64);
            let _ = write!(uvs, "{u},{v},");
            let _ = write!(verts, "{},{},", u * 200.0 - 100.0, v * 200.0 - 100.0);
        }
    }
    for j in 0..grid - 1 {
        for i in 0..grid - 1 {
            let a = j * grid + i;
            let _ = write!(
                tris,
                "{},{},{},{},{},{},",
                a,
                a + 1,
                a + grid,
                a + 1,
                a + grid + 1,
                a + grid
            );
        }
    }
    let trim = |s: &mut String| {
        s.pop();
    };
    trim(&mut uvs);
    trim(&mut verts);
    trim(&mut tris);
    let hull = 4 * (grid - 1);
    format!(
        r#"{{"skeleton":{{"spine":"4.2.0","width":200,"height":200}},
"bones":[{{"name":"root"}},{{"name":"b","parent":"root"}}],
"slots":[{{"name":"s","bone":"b","attachment":"m"}}],
"skins":[{{"name":"default","attachments":{{"s":{{"m":{{"type":"mesh","uvs":[{uvs}],
"triangles":[{tris}],"vertices":[{verts}],"hull":{hull},"width":200,"height":200}}}}}}}}],
"animations":{{"spin":{{"bones":{{"b":{{"rotate":[{{"time":0,"value":0}},{{"time":1,"value":360}}]}}}}}}}}}}"#
    )
}

#[test]
fn render_memory_does_not_grow_with_the_frame_count() {
    let name = "render_memory_does_not_grow_with_the_frame_count";
    if !sinew_testutil::run_alone(module_path!(), name) {
        return;
    }
    let dir = std::env::temp_dir().join(format!("sinew-render-stream-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let rig = dir.join("mesh.json");
    std::fs::write(&rig, mesh_rig(60)).expect("write the rig");
    let render = |frames: usize| -> isize {
        let out = dir.join(format!("out{frames}.gif"));
        let duration = format!("{}", frames as f64 / 30.0);
        let cli = sinew_cli::args::Cli::parse_from([
            "sinew",
            "render",
            rig.to_str().expect("utf-8 path"),
            "--atlas",
            "none",
            "--anim",
            "spin",
            "--duration",
            &duration,
            "--size",
            "24x24",
            "--out",
            out.to_str().expect("utf-8 path"),
        ]);
        let (result, peak) = peak_bytes(|| sinew_cli::run(&cli));
        let summary = result.expect("the render runs");
        assert!(
            summary.contains(&format!("{frames} frames")),
            "{frames} frames asked: {summary}"
        );
        assert_eq!(
            sinew_render::encode::frame_count(&out).expect("the GIF reads back"),
            frames
        );
        peak
    };
    let few = render(20);
    let many = render(400);
    // 380 more frames of about 100 KB of draw list each would be 38 MB more; the stream holds
    // at most two frames per core, whatever the count.
    let per_frame = 60 * 60 * 16 + 59 * 59 * 6 * 2;
    assert!(few > 0, "the counting allocator is installed");
    assert!(
        many - few < (40 * per_frame) as isize,
        "peak heap: {few} bytes for 20 frames, {many} for 400"
    );
    std::fs::remove_dir_all(&dir).ok();
}
