//! Spring tests: the closed form against the dynamics oracle, integrator error orders and
//! stability limits (math.md §B.1), exact steps at any h, energy decay.

use super::*;

fn p(k: f64, c: f64, m: f64) -> SpringParams {
    SpringParams {
        stiffness: k,
        damping: c,
        mass: m,
    }
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// Values from `dho_oracle.py --exact x0 v0 k c m t` (numpy, float64).
#[test]
fn closed_form_matches_the_oracle_in_every_regime() {
    // (x0, v0, k, c, m, t, x, v)
    let cases = [
        // under-damped: `--exact 1 0 100 2 1 0.5 1.0`
        (
            1.0,
            0.0,
            100.0,
            2.0,
            1.0,
            0.5,
            0.09855066761858593,
            5.886967935011047,
        ),
        (
            1.0,
            0.0,
            100.0,
            2.0,
            1.0,
            1.0,
            -0.33685168059041337,
            1.8534570698460584,
        ),
        // undamped: `--exact 0.3 -1.2 40 0 0.5 0.7`
        (
            0.3,
            -1.2,
            40.0,
            0.0,
            0.5,
            0.7,
            0.3029036337760355,
            -1.1401539771547833,
        ),
        // critical: `--exact 0.3 -1.2 40 8.94427190999916 0.5 0.7`
        (
            0.3,
            -1.2,
            40.0,
            8.94427190999916,
            0.5,
            0.7,
            0.002555282864475244,
            -0.020023035207351925,
        ),
        // over-damped (zeta 3): `--exact 0.3 -1.2 40 26.832815729997478 0.5 0.7`
        (
            0.3,
            -1.2,
            40.0,
            26.832815729997478,
            0.5,
            0.7,
            0.09747659725086058,
            -0.1495870450145055,
        ),
    ];
    for (x0, v0, k, c, m, t, x, v) in cases {
        let (gx, gv) = closed_form(p(k, c, m), x0, v0, t, 0.0);
        assert!(
            close(gx, x, 1e-12) && close(gv, v, 1e-11),
            "{k} {c} {m}: {gx} {gv}"
        );
    }
}

#[test]
fn closed_form_is_continuous_across_critical_damping() {
    let cc = 2.0 * (40.0f64 * 0.5).sqrt();
    let at = |c: f64| closed_form(p(40.0, c, 0.5), 0.3, -1.2, 0.7, 0.0).0;
    let (a, b, c) = (at(cc * (1.0 - 1e-7)), at(cc), at(cc * (1.0 + 1e-7)));
    assert!(close(a, b, 1e-6) && close(c, b, 1e-6), "{a} {b} {c}");
}

#[test]
fn closed_form_with_force_settles_at_f_over_k() {
    let (x, v) = closed_form(p(50.0, 20.0, 1.0), 0.0, 0.0, 20.0, 10.0);
    assert!(close(x, 0.2, 1e-12) && close(v, 0.0, 1e-12));
}

/// Runs an integrator for `t` seconds at step `h` from (1, 0).
fn simulate(sp: SpringParams, h: f64, t: f64, integ: Integrator) -> (f64, f64) {
    let mut s = LinearSpring::new(sp, 1.0);
    for _ in 0..(t / h).round() as usize {
        s.step(0.0, 0.0, h, integ);
    }
    (s.x, s.v)
}

#[test]
fn exact_step_is_exact_at_any_step() {
    for (k, c, m) in [
        (100.0, 2.0, 1.0),
        (40.0, 8.94427190999916, 0.5),
        (1000.0, 200.0, 2.0),
    ] {
        let sp = p(k, c, m);
        let (x_ref, v_ref) = closed_form(sp, 1.0, 0.0, 1.0, 0.0);
        for h in [1.0 / 30.0, 1.0 / 60.0, 1.0 / 144.0, 0.25, 0.5] {
            let (x, v) = simulate(sp, h, 1.0, Integrator::Exact);
            assert!(
                close(x, x_ref, 1e-12) && close(v, v_ref, 1e-10),
                "{k} {c} h={h}: {x}"
            );
        }
    }
}

#[test]
fn euler_errors_match_the_oracle_table() {
    // math.md: |x_h(1) - x(1)| for (100, 2, 1) at h = 1/60: symplectic 3.91e-2, implicit
    // damping 1.64e-3; both first order.
    let sp = p(100.0, 2.0, 1.0);
    let x_ref = closed_form(sp, 1.0, 0.0, 1.0, 0.0).0;
    let err = |h: f64, i: Integrator| (simulate(sp, h, 1.0, i).0 - x_ref).abs();
    let e_se = err(1.0 / 60.0, Integrator::SymplecticEuler);
    assert!(close(e_se, 3.91e-2, 5e-4), "{e_se}");
    let e_si = err(1.0 / 60.0, Integrator::SemiImplicitEuler);
    assert!(close(e_si, 1.64e-3, 5e-5), "{e_si}");
    let order = (err(1.0 / 240.0, Integrator::SymplecticEuler)
        / err(1.0 / 480.0, Integrator::SymplecticEuler))
    .log2();
    assert!((0.8..1.2).contains(&order), "{order}");
}

#[test]
fn stability_limits_match_the_table() {
    // math.md example rows (k, c, m) -> symplectic, symplectic/implicit damping.
    let rows = [
        ((100.0, 2.0, 1.0), 0.181, 0.221),
        ((1000.0, 10.0, 1.0), 0.054, 0.074),
        ((10000.0, 20.0, 1.0), 0.018, 0.022),
    ];
    for ((k, c, m), se, si) in rows {
        let sp = p(k, c, m);
        let a = sp.max_stable_step(Integrator::SymplecticEuler);
        let b = sp.max_stable_step(Integrator::SemiImplicitEuler);
        assert!(close(a, se, 1e-3) && close(b, si, 1e-3), "{k}: {a} {b}");
        assert!(sp.max_stable_step(Integrator::Exact).is_infinite());
    }
    // Undamped symplectic Euler: h <= 2/omega0.
    assert!(close(
        p(100.0, 0.0, 1.0).max_stable_step(Integrator::SymplecticEuler),
        0.2,
        1e-12
    ));
}

#[test]
fn just_inside_and_outside_the_limit() {
    // Inside the limit the amplitude stays bounded; 10% outside it grows without bound.
    let sp = p(1000.0, 10.0, 1.0);
    let hmax = sp.max_stable_step(Integrator::SemiImplicitEuler);
    let (x_in, _) = simulate(sp, hmax * 0.95, 20.0, Integrator::SemiImplicitEuler);
    assert!(x_in.abs() <= 1.0, "{x_in}");
    let (x_out, _) = simulate(sp, hmax * 1.1, 20.0, Integrator::SemiImplicitEuler);
    assert!(x_out.abs() > 1e3, "{x_out}");
    // The exact step is stable far beyond it.
    let (x_ex, _) = simulate(sp, hmax * 10.0, 20.0, Integrator::Exact);
    assert!(x_ex.abs() <= 1.0);
}

#[test]
fn energy_never_grows_without_input() {
    for (k, c, m) in [
        (100.0, 2.0, 1.0),
        (100.0, 0.0, 1.0),
        (40.0, 30.0, 0.5),
        (5000.0, 1.0, 2.0),
    ] {
        let sp = p(k, c, m);
        let step = ExactStep::new(sp, 1.0 / 60.0);
        let (mut y, mut v) = (0.7, -3.0);
        let energy = |y: f64, v: f64| 0.5 * m * v * v + 0.5 * k * y * y;
        let mut e = energy(y, v);
        for _ in 0..2000 {
            (y, v) = step.apply(y, v);
            let e1 = energy(y, v);
            assert!(e1 <= e * (1.0 + 1e-9) + 1e-15, "{k} {c}: {e1} > {e}");
            e = e1;
        }
    }
}

#[test]
fn from_frequency_round_trips() {
    let sp = SpringParams::from_frequency(2.5, 0.3, 1.5);
    assert!(close(sp.omega0(), std::f64::consts::TAU * 2.5, 1e-12));
    assert!(close(sp.zeta(), 0.3, 1e-12));
    assert!(sp.is_valid());
    assert!(!p(1.0, -1.0, 1.0).is_valid());
    assert!(!p(1.0, 1.0, 0.0).is_valid());
}

#[test]
fn pure_damping_exact_step() {
    // k = 0: v decays as exp(-c t / m), x drifts by v0 (1 - exp(-g t)) / g.
    let s = ExactStep::new(p(0.0, 3.0, 1.0), 1.0);
    let (x, v) = s.apply(0.0, 1.0);
    assert!(close(v, (-3.0f64).exp(), 1e-15));
    assert!(close(x, (1.0 - (-3.0f64).exp()) / 3.0, 1e-15));
}

#[test]
fn angular_spring_takes_the_short_way() {
    let sp = SpringParams::from_frequency(2.0, 1.0, 1.0);
    let mut a = AngularSpring::new(sp, 170.0);
    // Target -170: the short way is +20 degrees through 180.
    a.step(-170.0, 0.0, 1.0 / 60.0, Integrator::Exact);
    assert!(a.angle > 170.0 || a.angle < -170.0, "{}", a.angle);
    for _ in 0..600 {
        a.step(-170.0, 0.0, 1.0 / 60.0, Integrator::Exact);
    }
    assert!(close(a.angle, -170.0, 1e-6), "{}", a.angle);
    // Its angle in radians follows the linear closed form.
    let mut b = AngularSpring::new(sp, 10.0);
    for _ in 0..30 {
        b.step(0.0, 0.0, 1.0 / 60.0, Integrator::Exact);
    }
    let x = closed_form(sp, 10f64.to_radians(), 0.0, 0.5, 0.0)
        .0
        .to_degrees();
    assert!(close(b.angle, x, 1e-9), "{} {x}", b.angle);
}
