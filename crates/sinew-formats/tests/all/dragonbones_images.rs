//! DragonBones image displays map their sub-texture upright onto their quad: the texture's
//! top row on the display's top edge (DragonBones is y-down; draw lists are y-up), its left
//! column on the left edge, and a `rotated` sub-texture as the oracle's adapter maps it
//! (shared/oracle/dragonbones/dump.mjs `imageUVs`: the image's top-left corner on the packed
//! rectangle's bottom-left). No fixtures: the rigs are written here.

use sinew_formats::{LoadOptions, load_bytes};

/// One bone at (10, 20) with one image slot; its display is moved by (3, -4) and scaled x2
/// in x, and the pivot is the default centre.
const SKE: &str = r#"{"frameRate":24,"name":"t","version":"5.5","compatibleVersion":"5.5",
 "armature":[{"type":"Armature","frameRate":24,"name":"a",
  "bone":[{"name":"root","transform":{"x":10,"y":20}}],
  "slot":[{"name":"s","parent":"root"}],
  "skin":[{"slot":[{"name":"s","display":[{"name":"pic","transform":{"x":3,"y":-4,"scX":2}}]}]}],
  "animation":[{"duration":0,"name":"none"}]}]}"#;

/// A 64x32 page with `pic` packed at (8, 4): 16x8 upright, or rotated (stored 8 wide, 16 high).
fn tex(rotated: bool) -> String {
    let (w, h) = if rotated { (8, 16) } else { (16, 8) };
    format!(
        r#"{{"name":"t","imagePath":"t_tex.png","width":64,"height":32,
  "SubTexture":[{{"name":"pic","x":8,"y":4,"width":{w},"height":{h}{}}}]}}"#,
        if rotated { r#","rotated":true"# } else { "" }
    )
}

/// The image's draw-list corners `(x, y, u, v)` (y up), in the list's order.
fn corners(rotated: bool) -> Vec<[f32; 4]> {
    let tex = tex(rotated);
    let fetch = |name: &str| -> std::io::Result<Vec<u8>> {
        match name {
            "t_tex.json" => Ok(tex.clone().into_bytes()),
            _ => Err(std::io::ErrorKind::NotFound.into()),
        }
    };
    let options = LoadOptions {
        textures: false,
        ..Default::default()
    };
    let asset = load_bytes("t_ske.json", SKE.as_bytes(), &fetch, &options).expect("the rig loads");
    let mut c = asset.character();
    c.update(0.0);
    let list = c.draw_list();
    assert_eq!(list.commands.len(), 1, "one image drawn");
    let cmd = &list.commands[0];
    let uvs = list.command_uvs(cmd).to_vec();
    let start = cmd.vertex_start as usize;
    let n = uvs.len() / 2;
    assert_eq!(n, 4, "a quad");
    (0..n)
        .map(|i| {
            let p = &list.positions[2 * (start + i)..2 * (start + i) + 2];
            [p[0], p[1], uvs[2 * i], uvs[2 * i + 1]]
        })
        .collect()
}

/// The corner at (x, y) (within 1e-3).
fn at(cs: &[[f32; 4]], x: f32, y: f32) -> [f32; 4] {
    let d = |c: &[f32; 4]| (c[0] - x).powi(2) + (c[1] - y).powi(2);
    let c = *cs
        .iter()
        .min_by(|a, b| d(a).total_cmp(&d(b)))
        .expect("corners");
    assert!(d(&c) < 1e-6, "no corner at ({x}, {y}): {cs:?}");
    c
}

fn assert_uv(c: [f32; 4], u: f32, v: f32, what: &str) {
    assert!(
        (c[2] - u).abs() < 1e-6 && (c[3] - v).abs() < 1e-6,
        "{what}: corner ({}, {}) has uv ({}, {}), want ({u}, {v})",
        c[0],
        c[1],
        c[2],
        c[3]
    );
}

#[test]
fn an_image_is_drawn_upright_and_unmirrored() {
    let cs = corners(false);
    // The display is 32x8 (16 x scX 2) centred on (13, 16) y-down: (13, -16) in the y-up
    // draw list; its top edge is at y-up -12.
    let (l, r, top, bottom) = (13.0 - 16.0, 13.0 + 16.0, -12.0, -20.0);
    let (u0, v0, u1, v1) = (8.0 / 64.0, 4.0 / 32.0, 24.0 / 64.0, 12.0 / 32.0);
    assert_uv(at(&cs, l, top), u0, v0, "top-left");
    assert_uv(at(&cs, r, top), u1, v0, "top-right");
    assert_uv(at(&cs, r, bottom), u1, v1, "bottom-right");
    assert_uv(at(&cs, l, bottom), u0, v1, "bottom-left");
}

#[test]
fn a_rotated_sub_texture_is_drawn_as_the_oracle_maps_it() {
    let cs = corners(true);
    // Drawn at its unrotated size (16x8, then scX 2): the same quad as above.
    let (l, r, top, bottom) = (13.0 - 16.0, 13.0 + 16.0, -12.0, -20.0);
    // Packed 8x16 at (8, 4): u 8..16, v 4..20 of the page.
    let (u0, v0, u1, v1) = (8.0 / 64.0, 4.0 / 32.0, 16.0 / 64.0, 20.0 / 32.0);
    assert_uv(at(&cs, l, top), u0, v1, "top-left");
    assert_uv(at(&cs, r, top), u0, v0, "top-right");
    assert_uv(at(&cs, r, bottom), u1, v0, "bottom-right");
    assert_uv(at(&cs, l, bottom), u1, v1, "bottom-left");
}

/// A colour key's offsets are read the same way wherever they are looked at: an offset
/// written as `true` (which the lenient reader takes as 1) gives its slot a dark colour and
/// a two-colour timeline carrying that 1/255, as a number would; keys without offsets keep
/// the slot on the plain colour timeline.
#[test]
fn colour_key_offsets_read_alike_make_the_slot_two_coloured() {
    use sinew::raw::{RawTarget, SlotProperty};
    let ske = |offset: &str| {
        format!(
            r#"{{ "version": "5.5", "frameRate": 24, "armature": [{{ "type": "Armature",
            "name": "a", "bone": [{{ "name": "root" }}], "slot": [{{ "name": "s", "parent": "root" }}],
            "skin": [], "animation": [{{ "name": "c", "duration": 2, "slot": [{{ "name": "s",
            "colorFrame": [{{ "duration": 2, "value": {{ "rM": 50{offset} }} }},
                           {{ "duration": 0, "value": {{}} }}] }}] }}] }}] }}"#
        )
    };
    let colour_timeline = |text: &str| {
        let db = sinew_formats::dragonbones::parse_dragonbones(text, "o_ske.json", None, None)
            .expect("the rig loads");
        let slot = db
            .raw
            .slots
            .iter()
            .find(|s| s.name == "s")
            .expect("slot")
            .clone();
        let tl = db.raw.clips[0]
            .timelines
            .iter()
            .find_map(|t| match &t.target {
                RawTarget::Slot { property, .. } if *property != SlotProperty::Attachment => {
                    Some((*property, t.keys[0].values.clone()))
                }
                _ => None,
            })
            .expect("a colour timeline");
        (slot.dark.is_some(), tl)
    };
    let (dark, (property, values)) = colour_timeline(&ske(r#", "gO": true"#));
    assert!(dark);
    assert_eq!(property, SlotProperty::Rgba2);
    // light g = multiplier 1 + offset 1/255; dark g = 1/255.
    assert!((values[1] - (1.0 + 1.0 / 255.0)).abs() < 1e-6, "{values:?}");
    assert!((values[5] - 1.0 / 255.0).abs() < 1e-6, "{values:?}");
    let (dark, (property, values)) = colour_timeline(&ske(""));
    assert!(!dark);
    assert_eq!(property, SlotProperty::Rgba);
    assert_eq!(values.len(), 4);
}
