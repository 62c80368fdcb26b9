//! Vertices: deform offsets, skinning and world vertices of attachments.
