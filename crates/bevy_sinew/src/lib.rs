//! bevy_sinew: sinew characters in Bevy, for every format sinew reads (Spine 4.2/4.3 JSON and
//! `.skel`, DragonBones 5.x, Inochi2D `.inp`/`.inx`).
//!
//! Add [`SinewPlugin`], load a rig with the `AssetServer` and spawn a [`SinewCharacter`]:
//!
//! ```no_run
//! use bevy::prelude::*;
//! use bevy_sinew::{SinewCharacter, SinewPlugin, SinewRig};
//!
//! fn setup(mut commands: Commands, assets: Res<AssetServer>) {
//!     commands.spawn(Camera2d);
//!     let rig: Handle<SinewRig> = assets.load("stickbot/stickbot.json");
//!     commands.spawn((
//!         SinewCharacter::new(rig).with(|c| {
//!             let _ = c.set_animation(0, "walk", true);
//!         }),
//!         Transform::from_xyz(0.0, -150.0, 0.0),
//!     ));
//! }
//!
//! App::new()
//!     .add_plugins((DefaultPlugins, SinewPlugin))
//!     .add_systems(Startup, setup)
//!     .run();
//! ```
//!
//! The pieces:
//! - [`asset`]: [`SinewRig`] assets and their loader (from bytes, companions through the
//!   asset server, hot reload), [`SinewLoadFailed`] messages;
//! - [`character`]: [`SinewCharacter`] components, updated together on sinew's thread pool
//!   by Bevy's virtual time; [`SinewEvent`] messages;
//! - [`bones`]: entities that follow bones ([`SinewBoneFollower`]) and bones that follow
//!   entities ([`SinewBoneTargets`]);
//! - [`batch`], [`draw`] and [`material`]: the draw list as batched `Mesh2d`es with sinew's
//!   shader and blend modes, in Bevy's 2D pipeline;
//! - [`crowd`]: characters of one rig at one z merged into shared meshes;
//! - [`layers`]: off-screen passes for composites and blend modes that read the
//!   destination, following one view ([`SinewView`]).
//!
//! # Where it runs
//!
//! Everything runs in `PostUpdate`, in [`SinewSystems`] (chained, before Bevy's transform
//! propagation): [`SinewSystems::Update`] (bone targets placed, every character updated,
//! events written), [`SinewSystems::Bones`] (followers moved), [`SinewSystems::Draw`]
//! (meshes written). Control characters in `Update` (or anywhere before
//! `SinewSystems::Update`) and it shows this frame; read poses after `SinewSystems::Update`
//! (or in the next frame's `Update`) and they are this frame's.
//!
//! # Colour
//!
//! sinew's CPU renderer blends 8-bit sRGB values, as Spine's and Inochi2D's runtimes do. Put
//! `CompositingSpace::Srgb` on the camera for the same result (what the render tests
//! compare); on Bevy's default linear targets, opaque pixels are the same and blending
//! happens in linear light.

pub mod asset;
pub mod batch;
pub mod bones;
pub mod character;
pub mod crowd;
pub mod draw;
pub mod layers;
pub mod material;

pub use asset::{SinewLoadFailed, SinewRig, SinewRigLoader, SinewRigSettings};
pub use bones::{SinewBoneFollower, SinewBoneTargets};
pub use character::{SinewCharacter, SinewEvent, SinewSettings, SinewStats};
pub use draw::SinewBatches;
pub use layers::{SinewLayerCamera, SinewView};
pub use material::{MaskMode, SinewMaterial};
/// sinew itself, for the `Character` API and its types.
pub use sinew;

use bevy::prelude::*;
use bevy::transform::TransformSystems;

/// The plugin: rig assets, the character systems and the 2D drawing.
///
/// Owner: the app adds it once.
#[derive(Debug, Default, Clone, Copy)]
pub struct SinewPlugin;

/// Where the plugin's systems run (`PostUpdate`, in this order, before
/// `TransformSystems::Propagate`); order your systems around them.
///
/// Owner: the plugin.
#[derive(SystemSet, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SinewSystems {
    /// Characters built (or rebuilt on a reloaded rig), bone targets placed, every character
    /// updated on sinew's pool, events written.
    Update,
    /// Bone followers moved to this frame's bones.
    Bones,
    /// Meshes written from this frame's draw lists.
    Draw,
}

impl Plugin for SinewPlugin {
    fn build(&self, app: &mut App) {
        material::build(app);
        app.init_asset::<SinewRig>()
            .init_asset_loader::<SinewRigLoader>()
            .add_message::<SinewLoadFailed>()
            .add_message::<SinewEvent>()
            .init_resource::<SinewSettings>()
            .init_resource::<SinewStats>()
            .init_resource::<character::SinewPool>()
            .init_resource::<draw::MaterialCache>()
            .init_resource::<layers::RenderLayerAlloc>()
            .init_resource::<crowd::Merged>()
            .configure_sets(
                PostUpdate,
                (
                    SinewSystems::Update,
                    SinewSystems::Bones,
                    SinewSystems::Draw,
                )
                    .chain()
                    .before(TransformSystems::Propagate),
            )
            .add_systems(PreUpdate, asset::report_failures)
            .add_systems(
                PostUpdate,
                (
                    (
                        character::build_characters,
                        bones::place_bone_targets,
                        character::update_characters,
                    )
                        .chain()
                        .in_set(SinewSystems::Update),
                    bones::follow_bones.in_set(SinewSystems::Bones),
                    draw::draw_characters.in_set(SinewSystems::Draw),
                ),
            );
    }
}
