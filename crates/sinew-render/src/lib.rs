//! sinew-render: a CPU rasteriser for sinew's draw list (work in progress).
