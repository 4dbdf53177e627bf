//! The rows' logic on made-up tangents: what fails and what passes.

use super::*;

/// A unit tangent along `d` (normalised) with handedness `w`, from a blend 1 long.
fn t(d: [f64; 3], w: f64) -> Tangent64 {
    let n = d.iter().map(|c| c * c).sum::<f64>().sqrt();
    Tangent64 {
        xyzw: [d[0] / n, d[1] / n, d[2] / n, w],
        blended: 1.0,
    }
}

fn rows_of(got: &[[f32; 4]], want: &[Tangent64]) -> Vec<Row> {
    let mut tally = Tangents::new(Skinning::Lbs, true);
    for e in [
        &mut tally.core_f32,
        &mut tally.core_fixed,
        &mut tally.compute,
    ] {
        compare(e, got, want);
    }
    tally.least_blend = want.iter().map(|t| t.blended).fold(1.0, f64::min);
    let names = ["core f32", "core fixed", "gpu compute", "gpu vertex"];
    tally.rows(names, 0, 1.0, None)
}

#[test]
fn a_wrong_direction_or_handedness_fails_its_rows() {
    let want: Vec<Tangent64> = (0..50)
        .map(|i| {
            let a = f64::from(i) * 0.3;
            t([a.cos(), a.sin(), 0.5], if i % 2 == 0 { 1.0 } else { -1.0 })
        })
        .collect();
    let exact: Vec<[f32; 4]> = want.iter().map(|t| t.xyzw.map(|c| c as f32)).collect();
    let rows = rows_of(&exact, &want);
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(Row::passes), "{rows:?}");
    assert!(rows[0].errors.max < 1e-7 && rows[0].errors.count == 50);
    // The fixed row's limit: the bound for rigid blends, plus the f32 limit.
    assert!((rows[1].limit - (52.0 / 32768.0 + 1e-5)).abs() < 1e-12);

    // One vertex turned by 2·10⁻⁵ rad about Z: over every f32 limit, within the
    // fixed one.
    let mut turned = exact.clone();
    let (x, y) = (f64::from(turned[7][0]), f64::from(turned[7][1]));
    let (s, c) = (2e-5f64).sin_cos();
    turned[7][0] = (c * x - s * y) as f32;
    turned[7][1] = (s * x + c * y) as f32;
    let rows = rows_of(&turned, &want);
    assert!(!rows[0].passes() && !rows[2].passes(), "{rows:?}");
    assert!(rows[1].passes(), "{rows:?}");
    // Off by 2·10⁻³: the fixed row fails too.
    turned[7][2] += 2e-3;
    assert!(!rows_of(&turned, &want)[1].passes());
    // A flipped handedness fails every row; so does a NaN.
    let mut flipped = exact.clone();
    flipped[3][3] = -flipped[3][3];
    let rows = rows_of(&flipped, &want);
    assert!(rows[..3].iter().all(|r| !r.passes() && r.errors.max == 2.0));
    let mut nan = exact;
    nan[9][1] = f32::NAN;
    assert!(rows_of(&nan, &want)[1].errors.max.is_infinite());
}

#[test]
fn a_folded_blend_loosens_the_fixed_limit_a_rig_without_tangents_has_no_rows() {
    let mut want = vec![t([1.0, 0.0, 0.0], 1.0); 3];
    want[1].blended = 0.25;
    let exact: Vec<[f32; 4]> = want.iter().map(|t| t.xyzw.map(|c| c as f32)).collect();
    let rows = rows_of(&exact, &want);
    assert!((rows[1].limit - (fixed_error_bound(0.25, 0) + 1e-5)).abs() < 1e-15);
    let none = Tangents::new(Skinning::Dqs, false).rows(["a", "b", "c", "d"], 0, 1.0, None);
    assert!(none.is_empty());
}
