//! Which weights a cage bind computes: mean value coordinates (always built), or harmonic
//! coordinates and bounded biharmonic weights (`sinew::cage`'s `harmonic` feature, which this
//! crate's `harmonic` cargo feature turns on; without it those methods are
//! `SINEW_STATUS_UNSUPPORTED`).

use crate::{Fail, Res, SinewStatus};
use sinew::cage::{Cage, CageBinding, CageError, bind_mvc};

/// The weights a cage handle's later binds compute (`sinew_cage_set_method`).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SinewCageMethod {
    /// Mean value coordinates (Hormann and Floater 2006): closed form, fast, the default.
    /// Smooth inside the cage, but a weight may be negative in concave parts.
    #[default]
    MeanValue = 0,
    /// Harmonic coordinates (Joshi et al. 2007), solved on a refined triangulation of the
    /// cage's domain: never negative, but a bind is a sparse solve (much slower than mean
    /// value). Needs the library built with the `harmonic` cargo feature.
    Harmonic = 1,
    /// Bounded biharmonic weights (Jacobson et al. 2011), made to reproduce affine motion
    /// exactly: smooth, local, in 0..1; the slowest bind (one quadratic program per cage
    /// vertex). Needs the library built with the `harmonic` cargo feature.
    Biharmonic = 2,
}

impl SinewCageMethod {
    /// Its name in messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            SinewCageMethod::MeanValue => "SINEW_CAGE_METHOD_MEAN_VALUE",
            SinewCageMethod::Harmonic => "SINEW_CAGE_METHOD_HARMONIC",
            SinewCageMethod::Biharmonic => "SINEW_CAGE_METHOD_BIHARMONIC",
        }
    }
}

/// The method a host passed: an unknown value is `InvalidArgument`, a method this build
/// lacks `Unsupported`.
pub(crate) fn method_arg(method: u32) -> Res<SinewCageMethod> {
    let m = match method {
        0 => SinewCageMethod::MeanValue,
        1 => SinewCageMethod::Harmonic,
        2 => SinewCageMethod::Biharmonic,
        _ => {
            return Err(Fail::new(
                SinewStatus::InvalidArgument,
                format!("cage method {method} is not a SinewCageMethod (0, 1 or 2)"),
            ));
        }
    };
    if m != SinewCageMethod::MeanValue && !cfg!(feature = "harmonic") {
        return Err(Fail::new(
            SinewStatus::Unsupported,
            format!(
                "{} needs sinew-capi built with the `harmonic` cargo feature (this build has \
                 mean value coordinates only)",
                m.name()
            ),
        ));
    }
    Ok(m)
}

/// Dense weights of `points` in `cage` by `method` (one `method_arg` accepted).
pub(crate) fn bind_dense(
    method: SinewCageMethod,
    cage: &Cage,
    points: &[[f64; 2]],
) -> Result<CageBinding, CageError> {
    match method {
        SinewCageMethod::MeanValue => bind_mvc(cage, points),
        #[cfg(feature = "harmonic")]
        SinewCageMethod::Harmonic => {
            sinew::cage::bind_harmonic(cage, points, &sinew::cage::HarmonicOptions::default())
        }
        #[cfg(feature = "harmonic")]
        SinewCageMethod::Biharmonic => {
            sinew::cage::bind_biharmonic(cage, points, &sinew::cage::BiharmonicOptions::default())
        }
        // Refused by `method_arg` in a build without the solver, so never stored.
        #[cfg(not(feature = "harmonic"))]
        SinewCageMethod::Harmonic | SinewCageMethod::Biharmonic => Err(CageError::Solver(format!(
            "{} is not built in (feature `harmonic`)",
            method.name()
        ))),
    }
}
