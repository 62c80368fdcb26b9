//! The streaming frame pipeline of `sinew render`: frame `i` is posed, handed to a worker
//! that rasterises and encodes it, written in frame order, and dropped, so memory stays
//! bounded whatever the frame count.
//!
//! - The caller's thread poses frames in order (animation and physics are sequential) into
//!   draw lists taken from a pool of [`in_flight`] lists; a worker per core (one for the GPU
//!   backend) draws a list onto its own canvas and encodes it (a PNG of a sequence is written
//!   by the worker; a GIF frame is quantised there; an APNG frame becomes RGBA8); a writer
//!   thread appends the encoded frames to the GIF or APNG in frame order and gives each list
//!   back to the pool.
//! - At most [`in_flight`] frames exist at once (posed, drawing, or encoded and waiting for
//!   an earlier one): their draw lists and encoded pixels, plus one canvas per worker, are
//!   all the memory frames take. A frame count of 10 or 10,000 holds the same.
//! - An error or a panic in any stage stops the pipeline and is returned; nothing waits on a
//!   stage that has stopped.
//!
//! Verified by `tests/all/render_stream.rs` (the peak of live heap bytes of a 20-frame and a
//! 400-frame render of a large crafted mesh are within a small constant of each other) and
//! by the render CLI tests (every format's output unchanged).

use crate::render::{Output, sequence_path};
use anyhow::{Context, Result, anyhow};
use sinew::Color;
use sinew::draw::DrawList;
use sinew_formats::budget::Budgets;
use sinew_render::Canvas;
use sinew_render::encode::{
    AnimationWriter, GifFrame, gif_delay, gif_frame, gif_pixels, write_png,
};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, SyncSender, channel, sync_channel};
use std::sync::{Arc, Mutex};

/// Where the frames go and how they look.
pub struct Target<'a> {
    /// The output format.
    pub out: &'a Output,
    /// `--out`.
    pub path: &'a Path,
    /// Image width, pixels.
    pub width: u32,
    /// Image height, pixels.
    pub height: u32,
    /// What each canvas is cleared to.
    pub background: Color,
    /// Frames per second (GIF delays, APNG frame delay).
    pub fps: f64,
    /// Number of frames.
    pub frames: usize,
    /// The world rectangle each image shows.
    pub view: sinew_render::View,
    /// The rig file, named in budget errors.
    pub source: &'a Path,
    /// The command's budgets (`fill_pixels`, `output_pixels`).
    pub budgets: &'a Budgets,
}

/// How many frames may exist at once for `workers` workers and images of `pixels` pixels:
/// two per worker, and at most 512 MiB of encoded frames (4 bytes a pixel), at least one.
pub fn in_flight(workers: usize, pixels: u64) -> usize {
    (2 * workers.max(1)).min(((512u64 << 20) / (4 * pixels.max(1))).max(1) as usize)
}

/// The worker count for an image of `pixels` pixels: every core, at most 1 GiB of canvases
/// (16 bytes a pixel), one for `frames` = 1 or the GPU backend (`serial`).
pub fn workers(frames: usize, pixels: u64, serial: bool) -> usize {
    if serial {
        return 1;
    }
    std::thread::available_parallelism()
        .map_or(1, |t| t.get())
        .clamp(1, frames.max(1))
        .min(((1u64 << 30) / (16 * pixels.max(1))).max(1) as usize)
}

/// Refuses frame `i` of `target` when drawing `list` would fill more pixels than the
/// `fill_pixels` budget ([`sinew_render::fill_estimate`]): a frame's rasterising time is
/// bounded, whatever the overdraw a file asks for.
fn check_fill(list: &DrawList, target: &Target<'_>, i: usize) -> Result<()> {
    let fill = sinew_render::fill_estimate(list, &target.view, target.width, target.height);
    crate::guard::check(
        target.budgets,
        "fill_pixels",
        fill,
        format!("frame {i} of {}", target.source.display()),
    )?;
    Ok(())
}

/// Copies `src` into `dst`, reusing `dst`'s buffers.
pub fn copy_list(dst: &mut DrawList, src: &DrawList) {
    dst.commands.clone_from(&src.commands);
    dst.positions.clone_from(&src.positions);
    dst.uvs.clone_from(&src.uvs);
    dst.indices.clone_from(&src.indices);
    dst.clips.clone_from(&src.clips);
    dst.clip_vertices.clone_from(&src.clip_vertices);
    dst.groups.clone_from(&src.groups);
}

/// A frame after a worker's part of its encoding.
enum Encoded {
    /// Written to its own file already (PNG, PNG sequence).
    Written,
    /// Quantised GIF frame.
    Gif(GifFrame),
    /// Straight RGBA8 for the APNG writer.
    Rgba(Vec<u8>),
}

/// What a worker hands the writer: the frame index, its encoding and its list (for the pool).
type Done = (usize, Result<Encoded>, DrawList);

/// Streams `target.frames` frames: `pose(i, list)` fills frame `i`'s draw list (called in
/// order on this thread; the list is then checked against the `fill_pixels` budget), each of `workers` workers draws with its own `new_drawer()`
/// (called with a canvas already cleared to the background), and the output is written in
/// frame order. Returns the most frames that existed at once (at most [`in_flight`]).
pub fn stream<P, D, W>(
    target: &Target<'_>,
    workers: usize,
    mut pose: P,
    new_drawer: D,
) -> Result<usize>
where
    P: FnMut(usize, &mut DrawList) -> Result<()>,
    D: Fn() -> W + Sync,
    W: FnMut(&DrawList, &mut Canvas) -> Result<()>,
{
    let n = target.frames;
    let pixels = u64::from(target.width) * u64::from(target.height);
    // What the encoders will chew through, before anything is drawn.
    let weight = if matches!(target.out, Output::Gif) {
        4.0
    } else {
        1.0
    };
    crate::guard::check(
        target.budgets,
        "output_pixels",
        n as f64 * pixels as f64 * weight,
        format!(
            "{n} frames (from --fps with --duration or --times) of {}x{} (from --size, --scale \
             or --view) to {}",
            target.width,
            target.height,
            target.path.display()
        ),
    )?;
    let workers = workers.clamp(1, n.max(1));
    let slots = in_flight(workers, pixels);
    let (pool_tx, pool_rx) = sync_channel::<DrawList>(slots);
    for _ in 0..slots {
        pool_tx
            .send(DrawList::default())
            .map_err(|_| anyhow!("the frame pool closed"))?;
    }
    let (job_tx, job_rx) = sync_channel::<(usize, DrawList)>(slots);
    let job_rx = Arc::new(Mutex::new(job_rx));
    let (done_tx, done_rx) = channel::<Done>();
    let progress = progress_bar(n);
    let mut writer = match target.out {
        Output::Gif => Some(AnimationWriter::gif(
            target.path,
            target.width,
            target.height,
        )?),
        Output::Apng => Some(AnimationWriter::apng(
            target.path,
            target.width,
            target.height,
            n as u32,
            target.fps,
        )?),
        _ => None,
    };
    // Frames taken from the pool and not yet written, and the most there were.
    let (live, peak) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let (posed, written) = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                let (job_rx, done_tx, new_drawer) =
                    (Arc::clone(&job_rx), done_tx.clone(), &new_drawer);
                s.spawn(move || work(target, &job_rx, &done_tx, new_drawer))
            })
            .collect();
        drop(done_tx);
        let (writer, progress, live_ref) = (&mut writer, &progress, &live);
        let written = s.spawn(move || write_in_order(done_rx, pool_tx, writer, progress, live_ref));
        // Pose on this thread; stop when a later stage has stopped (the pool closes).
        let mut posed = Ok(());
        for i in 0..n {
            let Ok(mut list) = pool_rx.recv() else { break };
            peak.fetch_max(live.fetch_add(1, Ordering::SeqCst) + 1, Ordering::SeqCst);
            if let Err(e) = pose(i, &mut list).and_then(|()| check_fill(&list, target, i)) {
                posed = Err(e);
                break;
            }
            if job_tx.send((i, list)).is_err() {
                break;
            }
        }
        drop(job_tx);
        drop(pool_rx);
        for h in handles {
            // Workers catch their own panics; a join error is one outside the drawing.
            if h.join().is_err() {
                posed = posed.and(Err(anyhow!("a render thread panicked")));
            }
        }
        let written = written
            .join()
            .unwrap_or_else(|_| Err(anyhow!("the writing thread panicked")));
        (posed, written)
    });
    // A writer error (or a drawing error it received) explains a posing stop, so it comes
    // first.
    written?;
    posed?;
    if let Some(w) = writer {
        w.finish()
            .with_context(|| format!("writing {}", target.path.display()))?;
    }
    progress.finish_and_clear();
    Ok(peak.into_inner())
}

/// A worker: draws and encodes jobs until the job channel closes.
fn work<D, W>(
    target: &Target<'_>,
    jobs: &Mutex<Receiver<(usize, DrawList)>>,
    done: &std::sync::mpsc::Sender<Done>,
    new_drawer: &D,
) where
    D: Fn() -> W,
    W: FnMut(&DrawList, &mut Canvas) -> Result<()>,
{
    let mut drawer = new_drawer();
    let mut canvas = Canvas::new(target.width, target.height, target.background);
    loop {
        let job = match jobs.lock() {
            Ok(rx) => rx.recv(),
            Err(_) => return,
        };
        let Ok((i, list)) = job else { return };
        let encoded = catch_unwind(AssertUnwindSafe(|| {
            canvas.clear(target.background);
            drawer(&list, &mut canvas)?;
            encode(target, i, &canvas)
        }))
        .unwrap_or_else(|_| Err(anyhow!("frame {i}: the renderer panicked")));
        if done.send((i, encoded, list)).is_err() {
            return;
        }
    }
}

/// The worker's part of encoding frame `i`.
fn encode(target: &Target<'_>, i: usize, canvas: &Canvas) -> Result<Encoded> {
    let (w, h) = (target.width, target.height);
    Ok(match target.out {
        Output::Png | Output::PngSequence => {
            let file = if *target.out == Output::Png {
                target.path.to_path_buf()
            } else {
                sequence_path(target.path, i)
            };
            write_png(&file, w, h, &canvas.to_rgba8())?;
            Encoded::Written
        }
        Output::Gif => Encoded::Gif(gif_frame(
            w,
            h,
            gif_pixels(canvas, target.background),
            gif_delay(i, target.fps),
        )),
        Output::Apng => Encoded::Rgba(canvas.to_rgba8()),
    })
}

/// The writer: appends frames in order, giving each list back to the pool; returns the first
/// error (which closes the pool, so posing stops).
fn write_in_order(
    done: Receiver<Done>,
    pool: SyncSender<DrawList>,
    writer: &mut Option<AnimationWriter>,
    progress: &indicatif::ProgressBar,
    live: &AtomicUsize,
) -> Result<()> {
    let mut waiting: BTreeMap<usize, (Result<Encoded>, DrawList)> = BTreeMap::new();
    let mut next = 0;
    for (i, encoded, list) in done {
        waiting.insert(i, (encoded, list));
        while let Some((encoded, list)) = waiting.remove(&next) {
            match (encoded?, writer.as_mut()) {
                (Encoded::Gif(f), Some(w)) => w.push_gif(&f)?,
                (Encoded::Rgba(px), Some(w)) => w.push_rgba(&px)?,
                _ => {}
            }
            live.fetch_sub(1, Ordering::SeqCst);
            // The poser may have stopped; a closed pool is not an error here.
            let _ = pool.send(list);
            progress.inc(1);
            next += 1;
        }
    }
    Ok(())
}

fn progress_bar(n: usize) -> indicatif::ProgressBar {
    if n > 1 && std::io::stderr().is_terminal() {
        let bar = indicatif::ProgressBar::new(n as u64);
        bar.set_style(
            indicatif::ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} frames ({eta})")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message("rendering");
        bar
    } else {
        indicatif::ProgressBar::hidden()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_in_flight_are_bounded_by_workers_and_pixels() {
        assert_eq!(in_flight(2, 100), 4);
        assert_eq!(in_flight(0, 100), 2);
        // 16384 x 8192 pixels: 512 MiB a frame, so one at a time.
        assert_eq!(in_flight(16, 16384 * 8192), 1);
        assert_eq!(workers(1, 100, false), 1);
        assert_eq!(workers(100, 100, true), 1);
    }

    #[test]
    fn a_png_sequence_streams_in_order_and_errors_stop_it() {
        let dir = std::env::temp_dir().join(format!("sinew-stream-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("f%03d.png");
        let target = Target {
            out: &Output::PngSequence,
            path: &path,
            width: 4,
            height: 2,
            background: Color::WHITE,
            fps: 30.0,
            frames: 50,
            view: sinew_render::View {
                x0: 0.0,
                y0: 0.0,
                x1: 4.0,
                y1: 2.0,
            },
            source: &path,
            budgets: &Budgets::DEFAULT,
        };
        let mut order = Vec::new();
        let peak = stream(
            &target,
            2,
            |i, _| {
                order.push(i);
                Ok(())
            },
            || |_: &DrawList, _: &mut Canvas| -> Result<()> { Ok(()) },
        )
        .unwrap();
        assert_eq!(order, (0..50).collect::<Vec<_>>());
        assert!(peak <= in_flight(2, 8), "{peak}");
        assert!(dir.join("f049.png").is_file() && !dir.join("f050.png").exists());
        // A drawing error (and a panic) comes back as an error, and posing stops early.
        let mut posed = 0;
        let e = stream(
            &target,
            2,
            |_, _| {
                posed += 1;
                Ok(())
            },
            || {
                |list: &DrawList, _: &mut Canvas| -> Result<()> {
                    if list.positions.is_empty() {
                        anyhow::bail!("no vertices")
                    }
                    Ok(())
                }
            },
        )
        .unwrap_err();
        assert!(e.to_string().contains("no vertices"), "{e}");
        assert!(posed < 50, "{posed}");
        let e = stream(
            &target,
            1,
            |_, _| Ok(()),
            || |_: &DrawList, _: &mut Canvas| -> Result<()> { panic!("boom") },
        )
        .unwrap_err();
        assert!(e.to_string().contains("panicked"), "{e}");
        std::fs::remove_dir_all(&dir).ok();
    }
}
