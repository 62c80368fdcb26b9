//! Constraints run by the update plan: IK, transform and path.

pub mod path;
