//! Batch deformation: many meshes ([`deform_batch`]) or many instances of one bound mesh
//! ([`deform_instances`]) in one call, split over the available cores when the batch is
//! large (`std::thread::scope`).
//!
//! Small batches run on the calling thread and allocate nothing. Above
//! [`PARALLEL_MIN_WORK`] (point, cage vertex) pairs the work is cut into one contiguous
//! piece per core (whole weight blocks, or whole instances), which costs a thread spawn and a
//! few small vectors: worth it only when the batch takes far longer than that (~20-50 µs).
//! [`deform_instances`] walks the weights once, block by block, applying each block to every
//! instance while it is in L1, so many instances cost little more weight bandwidth than one.
//! Verified by the unit tests below (parallel and serial results are identical).

use super::CageError;
use super::weights::{CageBinding, LANES, block_sum};

/// Work (points times cage vertices) from which a batch is split over the cores.
pub const PARALLEL_MIN_WORK: usize = 1 << 20;

/// One mesh to deform: its binding, its deformed cage (x, y pairs) and its output
/// (x, y pairs, one per bound point).
///
/// Owner: the cage stage (bound at load time, applied after skinning; step 8 of `Character::update`).
#[derive(Debug)]
pub struct DeformJob<'a> {
    /// Bound weights.
    pub binding: &'a CageBinding,
    /// Deformed cage vertices, `2 * cage_vertex_count` floats.
    pub cage: &'a [f32],
    /// Output points, `2 * point_count` floats.
    pub out: &'a mut [f32],
}

/// A run of whole blocks of one job.
struct Piece<'s> {
    binding: &'s CageBinding,
    cage: &'s [f32],
    out: &'s mut [f32],
    first_block: usize,
}

fn threads() -> usize {
    std::thread::available_parallelism()
        .map(|t| t.get())
        .unwrap_or(1)
}

/// Deforms every job; checks all sizes first and deforms nothing if one is wrong.
pub fn deform_batch(jobs: &mut [DeformJob<'_>]) -> Result<(), CageError> {
    for j in jobs.iter() {
        j.binding.check(j.cage, j.out)?;
    }
    let work: usize = jobs
        .iter()
        .map(|j| j.binding.block_count() * LANES * j.binding.cage_vertex_count())
        .sum();
    let t = threads();
    if t <= 1 || work < PARALLEL_MIN_WORK {
        for j in jobs.iter_mut() {
            j.binding.deform_blocks(j.cage, j.out, 0);
        }
        return Ok(());
    }
    // Cut the sequence of (job, block) units into `t` runs of about equal work.
    let per = work.div_ceil(t);
    let mut pieces: Vec<Vec<Piece<'_>>> = (0..t).map(|_| Vec::new()).collect();
    let (mut thread, mut acc) = (0, 0);
    for j in jobs.iter_mut() {
        let cost = j.binding.cage_vertex_count().max(1) * LANES;
        let blocks = j.binding.block_count();
        let mut out: &mut [f32] = &mut *j.out;
        let mut block = 0;
        while block < blocks {
            let room = per.saturating_sub(acc) / cost;
            let take = room.max(1).min(blocks - block);
            let floats = (take * 2 * LANES).min(out.len());
            let (head, tail) = out.split_at_mut(floats);
            pieces[thread].push(Piece {
                binding: j.binding,
                cage: j.cage,
                out: head,
                first_block: block,
            });
            out = tail;
            block += take;
            acc += take * cost;
            if acc >= per && thread + 1 < t {
                (thread, acc) = (thread + 1, 0);
            }
        }
    }
    std::thread::scope(|s| {
        let mut iter = pieces.into_iter();
        let mine = iter.next();
        for run in iter {
            s.spawn(move || run_pieces(run));
        }
        if let Some(run) = mine {
            run_pieces(run);
        }
    });
    Ok(())
}

fn run_pieces(run: Vec<Piece<'_>>) {
    for p in run {
        p.binding.deform_blocks(p.cage, p.out, p.first_block);
    }
}

/// Deforms `R` instances of one bound mesh: `cages` holds `R` deformed cages one after the
/// other (`R * 2 * cage_vertex_count` floats), `outs` receives `R` outputs
/// (`R * 2 * point_count` floats).
pub fn deform_instances(
    binding: &CageBinding,
    cages: &[f32],
    outs: &mut [f32],
) -> Result<(), CageError> {
    let (n2, m2) = (2 * binding.cage_vertex_count(), 2 * binding.point_count());
    let r = cages.len().checked_div(n2).unwrap_or(0);
    if n2 == 0 || !cages.len().is_multiple_of(n2) {
        return Err(CageError::SizeMismatch {
            what: "deformed cages (instances x cage vertices x 2)",
            expected: n2.max(1) * r.max(1),
            got: cages.len(),
        });
    }
    if outs.len() != r * m2 {
        return Err(CageError::SizeMismatch {
            what: "instance outputs (instances x points x 2)",
            expected: r * m2,
            got: outs.len(),
        });
    }
    if m2 == 0 {
        return Ok(());
    }
    let work = r * binding.block_count() * LANES * binding.cage_vertex_count();
    let t = threads().min(r);
    if t <= 1 || work < PARALLEL_MIN_WORK {
        instances_serial(binding, cages, outs);
        return Ok(());
    }
    let per = r.div_ceil(t);
    std::thread::scope(|s| {
        let mut parts = cages.chunks(per * n2).zip(outs.chunks_mut(per * m2));
        let mine = parts.next();
        for (c, o) in parts {
            s.spawn(move || instances_serial(binding, c, o));
        }
        if let Some((c, o)) = mine {
            instances_serial(binding, c, o);
        }
    });
    Ok(())
}

/// Block-major loop over instances: each weight block is loaded once for all of them.
fn instances_serial(binding: &CageBinding, cages: &[f32], outs: &mut [f32]) {
    let n = binding.cage_vertex_count();
    let m2 = 2 * binding.point_count();
    for (bi, block) in binding
        .blocked_weights()
        .chunks_exact(n * LANES)
        .enumerate()
    {
        let lo = bi * 2 * LANES;
        let hi = (lo + 2 * LANES).min(m2);
        for (cage, out) in cages.chunks_exact(2 * n).zip(outs.chunks_exact_mut(m2)) {
            let (ox, oy) = (cage[0], cage[1]);
            let (ax, ay) = block_sum(block, cage, ox, oy);
            for (l, pair) in out[lo..hi].chunks_exact_mut(2).enumerate() {
                pair[0] = ox + ax[l];
                pair[1] = oy + ay[l];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A binding with pseudo-random rows summing to 1.
    fn binding(m: usize, n: usize, seed: u32) -> CageBinding {
        let mut s = seed;
        let mut rows = Vec::with_capacity(m * n);
        for _ in 0..m {
            let row: Vec<f32> = (0..n)
                .map(|_| {
                    s = s.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                    (s >> 8) as f32 / (1u32 << 24) as f32
                })
                .collect();
            let sum: f32 = row.iter().sum();
            rows.extend(row.iter().map(|w| w / sum));
        }
        CageBinding::from_rows(m, n, &rows).expect("sizes")
    }

    fn cage(n: usize, shift: f32) -> Vec<f32> {
        (0..2 * n)
            .map(|k| (k as f32 * 0.37).sin() + shift)
            .collect()
    }

    #[test]
    fn parallel_batch_matches_serial() {
        // Large enough to split: 3 meshes, ~1.3 M pairs, uneven sizes.
        let bs = [
            binding(20_001, 32, 1),
            binding(7, 4, 2),
            binding(19_999, 33, 3),
        ];
        let cages = [cage(32, 0.0), cage(4, 1.0), cage(33, 2.0)];
        let mut serial: Vec<Vec<f32>> = bs.iter().map(|b| vec![0.0; 2 * b.point_count()]).collect();
        for ((b, c), o) in bs.iter().zip(&cages).zip(&mut serial) {
            b.deform(c, o).expect("sizes");
        }
        let mut outs: Vec<Vec<f32>> = bs.iter().map(|b| vec![0.0; 2 * b.point_count()]).collect();
        let mut jobs: Vec<DeformJob<'_>> = bs
            .iter()
            .zip(&cages)
            .zip(outs.iter_mut())
            .map(|((binding, cage), out)| DeformJob { binding, cage, out })
            .collect();
        deform_batch(&mut jobs).expect("sizes");
        drop(jobs);
        assert_eq!(outs, serial);
    }

    #[test]
    fn batch_rejects_a_bad_job_before_writing() {
        let b = binding(10, 3, 4);
        let c = cage(3, 0.0);
        let mut o1 = vec![7.0; 20];
        let mut o2 = vec![7.0; 19];
        let mut jobs = [
            DeformJob {
                binding: &b,
                cage: &c,
                out: &mut o1,
            },
            DeformJob {
                binding: &b,
                cage: &c,
                out: &mut o2,
            },
        ];
        assert!(deform_batch(&mut jobs).is_err());
        assert!(o1.iter().all(|&x| x == 7.0));
    }

    #[test]
    fn instances_match_one_by_one() {
        for (m, r) in [(37, 3), (4_000, 300)] {
            let b = binding(m, 16, 5);
            let cages: Vec<f32> = (0..r).flat_map(|i| cage(16, i as f32)).collect();
            let mut outs = vec![0.0; r * 2 * m];
            deform_instances(&b, &cages, &mut outs).expect("sizes");
            for i in [0, r / 2, r - 1] {
                let mut one = vec![0.0; 2 * m];
                b.deform(&cages[i * 32..(i + 1) * 32], &mut one)
                    .expect("sizes");
                assert_eq!(&outs[i * 2 * m..(i + 1) * 2 * m], &one[..]);
            }
        }
        let b = binding(5, 3, 6);
        assert!(deform_instances(&b, &[0.0; 7], &mut [0.0; 10]).is_err());
        assert!(deform_instances(&b, &[0.0; 12], &mut [0.0; 10]).is_err());
    }
}
