//! Mean value cage deformation on its own: bind a mesh's points to a cage with a hole, move
//! the cage, deform, save the weights to a file, load them back and deform again.
//!
//!     cargo run --release -p sinew --example cage_deform
use sinew::cage::{Cage, bind_mvc, format};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // An outer square (counter-clockwise) with a square hole (clockwise).
    let outer = [[0.0, 0.0], [100.0, 0.0], [100.0, 100.0], [0.0, 100.0]];
    let hole = [[40.0, 40.0], [40.0, 60.0], [60.0, 60.0], [60.0, 40.0]];
    let cage = Cage::from_loops(&[&outer[..], &hole[..]])?;
    // A 10 x 10 grid of mesh points, less those in the hole.
    let grid = (0..100).map(|k| [f64::from(k / 10), f64::from(k % 10)].map(|v| 5.0 + 10.0 * v));
    let points: Vec<[f64; 2]> = grid
        .filter(|p| !p.iter().all(|v| (35.0..=65.0).contains(v)))
        .collect();
    let binding = bind_mvc(&cage, &points)?;
    // Shear the outer square and lift the hole: one call deforms every point.
    let mut moved = Vec::new();
    for (k, p) in cage.points().iter().enumerate() {
        let lift = if k >= 4 { 15.0 } else { 0.0 };
        moved.extend([(p[0] + 0.3 * p[1]) as f32, (p[1] + lift) as f32]);
    }
    let mut out = vec![0.0f32; points.len() * 2];
    binding.deform(&moved, &mut out)?;
    println!("point 0: {:?} -> ({:.2}, {:.2})", points[0], out[0], out[1]);
    // Save and load the weights (versioned, checksummed little-endian format).
    let path = std::env::temp_dir().join("sinew-cage-example.bin");
    std::fs::write(&path, format::encode_dense(&binding))?;
    let loaded = format::decode(&std::fs::read(&path)?)?;
    let again = loaded.deformed(&moved)?;
    assert_eq!(
        out, again,
        "the loaded weights deform exactly like the bound ones"
    );
    println!(
        "saved to {}, loaded, deformed again: identical",
        path.display()
    );
    Ok(())
}
