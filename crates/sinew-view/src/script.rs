//! Scripted input (`--input SCRIPT`): pointer drags and clicks on named targets, fed to egui
//! as the pointer events a mouse gives (moved, pressed, moved in steps, released) through
//! `eframe::App::raw_input_hook`, one step after the other, so the widgets and the canvas
//! handle them exactly as they handle a user's. Targets are what the viewer names while it
//! draws: `slider:CHAIN.KEY` (a jiggle chain's slider), `button:save-extras`,
//! `cage:K.J` (point J of the K-th dragged cage's handles). A target that does not appear
//! within [`WAIT_FRAMES`] frames fails the run, naming the targets there are.
//!
//! A script is one step a line (`#` starts a comment):
//!
//! ```text
//! drag slider:cape.stiffness to 0.9   # press in the slider, drag to 90% of its width
//! drag cage:0.3 by 30,-20             # press on the handle, drag it 30 right, 20 up (points)
//! click button:save-extras
//! wait 5                              # frames
//! ```

use anyhow::{Result, anyhow};
use eframe::egui;
use std::collections::BTreeMap;

/// Frames a step waits for its target before the run fails.
pub const WAIT_FRAMES: u32 = 30;
/// Pointer moves between press and release of a drag.
const DRAG_MOVES: u32 = 8;

/// Where a drag ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DragTo {
    /// At this fraction of the target's width (0 left, 1 right), at its vertical centre;
    /// the drag starts at the target's centre.
    Fraction(f32),
    /// This far from where it starts (the target's centre), in points, x right, y up.
    By(f32, f32),
}

/// One step of a script.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Press on the target, move in steps, release.
    Drag {
        /// The target's name.
        target: String,
        /// Where the pointer is released.
        to: DragTo,
    },
    /// Press and release on the target's centre.
    Click {
        /// The target's name.
        target: String,
    },
    /// Let frames pass.
    Wait(u32),
}

/// Parses a script (one step a line); errors name the line.
///
/// ```
/// use sinew_view::script::{parse, DragTo, Step};
/// let s = parse("drag slider:cape.stiffness to 0.9\n# c\nclick button:save-extras\nwait 3")
///     .expect("a script");
/// assert_eq!(s[0], Step::Drag { target: "slider:cape.stiffness".into(), to: DragTo::Fraction(0.9) });
/// assert_eq!(s.len(), 3);
/// assert!(parse("drag x by 3").is_err());
/// ```
pub fn parse(text: &str) -> Result<Vec<Step>> {
    let mut steps = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |why: &str| anyhow!("input script line {}: `{line}`: {why}", n + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let num = |s: &str| -> Result<f32> {
            s.parse::<f32>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| bad(&format!("`{s}` is not a finite number")))
        };
        steps.push(match words.as_slice() {
            ["drag", target, "to", f] => Step::Drag {
                target: (*target).to_owned(),
                to: DragTo::Fraction(num(f)?),
            },
            ["drag", target, "by", d] => {
                let (x, y) = d
                    .split_once(',')
                    .ok_or_else(|| bad("expected `by DX,DY`"))?;
                Step::Drag {
                    target: (*target).to_owned(),
                    to: DragTo::By(num(x)?, num(y)?),
                }
            }
            ["click", target] => Step::Click {
                target: (*target).to_owned(),
            },
            ["wait", n] => Step::Wait(
                n.parse()
                    .map_err(|_| bad(&format!("`{n}` is not a frame count")))?,
            ),
            _ => {
                return Err(bad(
                    "expected `drag TARGET to FRACTION`, `drag TARGET by DX,DY`, \
                     `click TARGET` or `wait FRAMES`",
                ));
            }
        });
    }
    Ok(steps)
}

/// Plays a script: which step, how far into it.
#[derive(Debug, Default)]
pub(crate) struct Player {
    steps: Vec<Step>,
    step: usize,
    /// Frames spent in the current step.
    frame: u32,
    /// The current step's pointer path (start, end), once its target was found.
    path: Option<(egui::Pos2, egui::Pos2)>,
    /// The current step's target as last seen: a step starts once its target stayed put
    /// for a frame (the panels settle their sizes over the first frames).
    seen: Option<egui::Rect>,
}

impl Player {
    pub(crate) fn new(steps: Vec<Step>) -> Player {
        Player {
            steps,
            ..Default::default()
        }
    }

    /// Whether every step has run.
    pub(crate) fn done(&self) -> bool {
        self.step >= self.steps.len()
    }

    /// This frame's pointer events, given the targets drawn last frame (name to rectangle,
    /// points); an error when a step's target has not appeared within [`WAIT_FRAMES`].
    pub(crate) fn events(
        &mut self,
        targets: &BTreeMap<String, egui::Rect>,
    ) -> Result<Vec<egui::Event>> {
        let Some(step) = self.steps.get(self.step).cloned() else {
            return Ok(Vec::new());
        };
        self.frame += 1;
        let (target, to) = match &step {
            Step::Wait(n) => {
                if self.frame >= *n {
                    self.next();
                }
                return Ok(Vec::new());
            }
            Step::Drag { target, to } => (target, Some(*to)),
            Step::Click { target } => (target, None),
        };
        let (a, b) = match self.path {
            Some(p) => p,
            None => {
                let found = targets.get(target).copied();
                let settled = found.filter(|r| self.seen == Some(*r));
                self.seen = found;
                let Some(r) = settled else {
                    if self.frame > WAIT_FRAMES && found.is_some() {
                        return Err(anyhow!(
                            "input script step {}: target `{target}` never stayed put",
                            self.step + 1
                        ));
                    }
                    if self.frame > WAIT_FRAMES {
                        let have: Vec<&str> = targets.keys().map(String::as_str).collect();
                        return Err(anyhow!(
                            "input script step {}: no target `{target}` (have: {})",
                            self.step + 1,
                            have.join(", ")
                        ));
                    }
                    return Ok(Vec::new());
                };
                let a = r.center();
                let b = match to {
                    None => a,
                    Some(DragTo::Fraction(f)) => egui::pos2(r.min.x + f * r.width(), a.y),
                    Some(DragTo::By(dx, dy)) => a + egui::vec2(dx, -dy),
                };
                self.path = Some((a, b));
                self.frame = 0;
                return Ok(vec![egui::Event::PointerMoved(a)]);
            }
        };
        let button = |pos, pressed| egui::Event::PointerButton {
            pos,
            button: egui::PointerButton::Primary,
            pressed,
            modifiers: egui::Modifiers::NONE,
        };
        let moves = if to.is_some() { DRAG_MOVES } else { 0 };
        Ok(match self.frame {
            1 => vec![button(a, true)],
            f if f <= 1 + moves => {
                let t = (f - 1) as f32 / moves as f32;
                vec![egui::Event::PointerMoved(a.lerp(b, t))]
            }
            f if f == 2 + moves => vec![button(b, false)],
            _ => {
                self.next();
                vec![egui::Event::PointerGone]
            }
        })
    }

    fn next(&mut self) {
        self.step += 1;
        self.frame = 0;
        self.path = None;
        self.seen = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drag_presses_moves_and_releases_on_its_target() {
        let mut p = Player::new(parse("drag slider:a.k to 1\nclick b").expect("parses"));
        let mut targets = BTreeMap::new();
        // The target is not there yet: nothing happens.
        assert!(p.events(&targets).expect("waits").is_empty());
        // It appears, then moves (the panels settle): the step waits until it stays put.
        let r = egui::Rect::from_min_size(egui::pos2(10.0, 20.0), egui::vec2(100.0, 10.0));
        targets.insert("slider:a.k".to_owned(), r.translate(egui::vec2(5.0, 0.0)));
        assert!(p.events(&targets).expect("waits").is_empty());
        targets.insert("slider:a.k".to_owned(), r);
        assert!(p.events(&targets).expect("waits").is_empty());
        targets.insert("b".to_owned(), r);
        let mut all = Vec::new();
        while !p.done() {
            all.extend(p.events(&targets).expect("plays"));
            assert!(all.len() < 100, "never ends");
        }
        assert_eq!(all[0], egui::Event::PointerMoved(egui::pos2(60.0, 25.0)));
        assert!(matches!(
            all[1],
            egui::Event::PointerButton { pressed: true, .. }
        ));
        assert_eq!(all[9], egui::Event::PointerMoved(egui::pos2(110.0, 25.0)));
        assert!(matches!(
            all[10],
            egui::Event::PointerButton { pressed: false, pos, .. } if pos == egui::pos2(110.0, 25.0)
        ));
        assert_eq!(all[11], egui::Event::PointerGone);
        // The click: (a frame to see it settled) move, press, release at the centre, gone.
        assert_eq!(all.len(), 16);
    }

    #[test]
    fn a_missing_target_fails_naming_the_ones_there_are() {
        let mut p = Player::new(parse("click button:nope").expect("parses"));
        let mut targets = BTreeMap::new();
        targets.insert("button:save-extras".to_owned(), egui::Rect::ZERO);
        let e = (0..=WAIT_FRAMES)
            .find_map(|_| p.events(&targets).err())
            .expect("fails");
        assert!(e.to_string().contains("button:nope"), "{e}");
        assert!(e.to_string().contains("button:save-extras"), "{e}");
    }

    #[test]
    fn bad_lines_are_refused_with_their_number() {
        for (text, line) in [
            ("wait 2\ndrag a to x", "line 2"),
            ("drag a by 3", "line 1"),
            ("jump a", "line 1"),
        ] {
            let e = parse(text).expect_err(text);
            assert!(e.to_string().contains(line), "{e}");
        }
        assert_eq!(parse("wait 4 # four").expect("ok"), vec![Step::Wait(4)]);
    }
}
