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
    // A grid of mesh points between the two loops.
    let points: Vec<[f64; 2]> = (0..10)
        .flat_map(|i| (0..10).map(move |j| [5.0 + 10.0 * f64::from(i), 5.0 + 10.0 * f64::from(j)]))
        .filter(|p| !(35.0..=65.0).contains(&p[0]) || !(35.0..=65.0).contains(&p[1]))
        .collect();
    let binding = bind_mvc(&cage, &points)?;
    println!(
        "bound {} points to {} cage vertices",
        points.len(),
        cage.vertex_count()
    );

    // Shear the outer square and lift the hole: one call deforms every point.
    let mut moved: Vec<f32> = Vec::new();
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
    let format::LoadedBinding::Dense(loaded) = format::decode(&std::fs::read(&path)?)? else {
        return Err("expected dense weights".into());
    };
    let mut again = vec![0.0f32; points.len() * 2];
    loaded.deform(&moved, &mut again)?;
    assert_eq!(
        out, again,
        "the loaded weights deform exactly like the bound ones"
    );
    println!(
        "saved, loaded and deformed again: identical ({})",
        path.display()
    );
    Ok(())
}
