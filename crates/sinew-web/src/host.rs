//! What the page talks to, in safe Rust: a staging buffer the page writes names and bytes
//! into, an output buffer it reads text from, the files fetched so far, and the players.
//!
//! Loading from URLs is a loop the page runs: it hands over the files it has
//! ([`Host::add_file`]), asks for a load ([`Host::load`]); when the load needs a companion
//! it does not have yet (an atlas, a page image, a `_tex.json`), the answer is
//! [`Loaded::Needs`] with the names (relative to the main file); the page fetches them (a
//! 404 is handed over as missing, which a `Beside` companion may be) and asks again. No
//! companion is ever read from anywhere but what the page handed over.

use crate::frame::{Frame, Placement};
use crate::player::Player;
use sinew_formats::{Companion, LoadOptions};
use std::collections::HashMap;
use std::io::{Error, ErrorKind};

/// The companions of a load beyond the main file, by name relative to it (`None`: the
/// default: the atlas beside the main file, no extras, no physics3, the first armature).
///
/// Owner: the web host (`sinew-web`), per load.
#[derive(Debug, Clone, Copy, Default)]
pub struct Request<'a> {
    /// A Spine `.atlas` or a DragonBones `_tex.json`.
    pub atlas: Option<&'a str>,
    /// The DragonBones armature.
    pub armature: Option<&'a str>,
    /// A rig-extras JSON file (jiggle bones, delayed follows; `docs/EXTRAS.md`).
    pub extras: Option<&'a str>,
    /// A Cubism `physics3.json` for a puppet.
    pub physics3: Option<&'a str>,
}

/// The outcome of [`Host::load`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Loaded {
    /// A player, by id.
    Player(u32),
    /// The companions to fetch before asking again.
    Needs(Vec<String>),
    /// The load failed; the message names the file and what is wrong.
    Failed(String),
}

/// The web host's state.
///
/// Owner: the web host (`sinew-web`), one per wasm instance.
#[derive(Default)]
pub struct Host {
    /// What the page wrote last (names, bytes).
    pub stage: Vec<u8>,
    /// Text for the page to read (errors, JSON, names).
    pub out: Vec<u8>,
    /// Numbers for the page to read (bone transforms, bounds).
    pub numbers: [f64; 8],
    /// Files handed over by name; `None`: fetched and not found.
    files: HashMap<String, Option<Vec<u8>>>,
    players: Vec<Option<Player>>,
    /// The shared frame of [`Host::group_frame`].
    pub group: Frame,
}

impl Host {
    /// Hands over file `name`: its bytes, or `None` when the page could not fetch it.
    pub fn add_file(&mut self, name: &str, bytes: Option<Vec<u8>>) {
        self.files.insert(name.to_owned(), bytes);
    }

    /// Forgets every file handed over.
    pub fn clear_files(&mut self) {
        self.files.clear();
    }

    /// Loads the main file `name` (handed over before) with an optional atlas name (a
    /// Spine `.atlas` or a DragonBones `_tex.json`) and DragonBones armature.
    pub fn load(&mut self, name: &str, atlas: Option<&str>, armature: Option<&str>) -> Loaded {
        let request = Request {
            atlas,
            armature,
            ..Request::default()
        };
        self.load_with(name, &request)
    }

    /// Loads the main file `name` (handed over before) with the companions `request`
    /// names.
    pub fn load_with(&mut self, name: &str, request: &Request<'_>) -> Loaded {
        let Some(Some(main)) = self.files.get(name) else {
            return Loaded::Failed(format!("{name}: the file could not be fetched"));
        };
        let wanted = std::cell::RefCell::new(Vec::<String>::new());
        let files = &self.files;
        let fetch = |n: &str| -> std::io::Result<Vec<u8>> {
            match files.get(n) {
                Some(Some(b)) => Ok(b.clone()),
                Some(None) => Err(Error::new(ErrorKind::NotFound, format!("`{n}` not found"))),
                None => {
                    wanted.borrow_mut().push(n.to_owned());
                    // Not NotFound: a `Beside` companion not fetched yet must not count as
                    // absent.
                    Err(Error::new(
                        ErrorKind::WouldBlock,
                        format!("`{n}` not fetched yet"),
                    ))
                }
            }
        };
        let named = |n: Option<&str>| n.map(|a| Companion::Named(a.to_owned()));
        let options = LoadOptions {
            atlas: named(request.atlas).unwrap_or(Companion::Beside),
            extras: named(request.extras).unwrap_or(Companion::Without),
            physics3: named(request.physics3).unwrap_or(Companion::Without),
            armature: request.armature.map(str::to_owned),
            ..LoadOptions::default()
        };
        let result = sinew_formats::load_bytes(name, main, &fetch, &options);
        let wanted = wanted.into_inner();
        match result {
            Ok(asset) => {
                let id = self.players.len() as u32;
                self.players.push(Some(Player::new(asset)));
                Loaded::Player(id)
            }
            Err(_) if !wanted.is_empty() => Loaded::Needs(wanted),
            Err(e) => Loaded::Failed(e.to_string()),
        }
    }

    /// Player `id`, if loaded and not freed.
    pub fn player(&mut self, id: u32) -> Option<&mut Player> {
        self.players.get_mut(id as usize).and_then(Option::as_mut)
    }

    /// Takes player `id` out of the host (to drive it from Rust).
    pub fn take(&mut self, id: u32) -> Option<Player> {
        self.players.get_mut(id as usize).and_then(Option::take)
    }

    /// A new player sharing player `id`'s asset ([`Player::spawn`]); its id.
    pub fn spawn(&mut self, id: u32) -> Option<u32> {
        let p = self.player(id)?.spawn();
        self.players.push(Some(p));
        Some(self.players.len() as u32 - 1)
    }

    /// Builds one frame of several players, each placed ([`Frame::append`]); unknown ids
    /// are left out.
    pub fn group_frame(&mut self, items: &[(u32, Placement)]) -> &Frame {
        self.group.clear();
        for &(id, at) in items {
            if let Some(p) = self.players.get_mut(id as usize).and_then(Option::as_mut) {
                p.append_to(&mut self.group, at);
            }
        }
        &self.group
    }

    /// The frame player `id` built last (`u32::MAX`: the group frame).
    pub fn frame_of(&self, id: u32) -> Option<&Frame> {
        if id == u32::MAX {
            return Some(&self.group);
        }
        self.players
            .get(id as usize)
            .and_then(Option::as_ref)
            .map(Player::frame)
    }

    /// Frees player `id`.
    pub fn free(&mut self, id: u32) {
        if let Some(p) = self.players.get_mut(id as usize) {
            *p = None;
        }
    }

    /// Sets the output text; returns its length in bytes.
    pub fn say(&mut self, text: &str) -> u32 {
        self.out.clear();
        self.out.extend_from_slice(text.as_bytes());
        self.out.len() as u32
    }

    /// The staged bytes as text (lossy), split at newlines.
    pub fn staged_lines(&self) -> Vec<String> {
        String::from_utf8_lossy(&self.stage)
            .split('\n')
            .map(str::to_owned)
            .collect()
    }
}
