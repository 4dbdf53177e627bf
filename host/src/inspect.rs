//! What `skin inspect` and `skin budget` print: what a model holds, whether the fixed lane
//! holds it, and what each constant-register budget costs it.

use std::fmt::Write as _;

use skin_core::budget::{Budget, Layout};

use crate::pose::range::check_fixed;
use crate::pose::{asset_unit, fixed_unit, pose, LaneKind};
use crate::rig::Rig;
use crate::split::{split, SplitError};

/// The presets called `names` (all presets when empty), or a message naming the unknown one.
pub fn budgets(names: &[String]) -> Result<Vec<Budget>, String> {
    if names.is_empty() {
        return Ok(Budget::PRESETS.to_vec());
    }
    names
        .iter()
        .map(|n| {
            Budget::preset(n).ok_or_else(|| {
                let known: Vec<&str> = Budget::PRESETS.iter().map(|b| b.name).collect();
                format!("unknown budget {n:?} (known: {})", known.join(", "))
            })
        })
        .collect()
}

/// Axis-aligned bounds of a set of positions: `(min, max)`, or `None` when empty.
pub fn bounds<'a>(points: impl IntoIterator<Item = &'a [f32; 3]>) -> Option<([f32; 3], [f32; 3])> {
    points.into_iter().fold(None, |acc, p| {
        let (lo, hi) = acc.unwrap_or((*p, *p));
        Some((
            core::array::from_fn(|i| lo[i].min(p[i])),
            core::array::from_fn(|i| hi[i].max(p[i])),
        ))
    })
}

/// The length of the diagonal of `(min, max)`.
pub fn diagonal((lo, hi): ([f32; 3], [f32; 3])) -> f32 {
    (0..3).map(|i| (hi[i] - lo[i]).powi(2)).sum::<f32>().sqrt()
}

/// Does the fixed-point pipeline hold the rig at rest and at every checked time of every
/// clip ([`crate::pose::range::check_times`]: keys and the midpoints between them)?
/// `Ok(frames checked)` or the first failure.
pub fn fixed_fits(rig: &Rig) -> Result<usize, String> {
    let clips: Vec<usize> = (0..rig.clips.len()).collect();
    fixed_unit(rig)
        .and_then(|k| check_fixed(rig, &clips, k))
        .map_err(|e| e.to_string())
}

/// The `skin inspect` report.
pub fn inspect(rig: &Rig, name: &str) -> String {
    let mut s = String::new();
    let roots = rig.nodes.iter().filter(|n| n.parent.is_none()).count();
    let _ = writeln!(s, "model: {name}");
    let _ = writeln!(s, "nodes: {} ({roots} root(s))", rig.nodes.len());
    skins(&mut s, rig);
    meshes(&mut s, rig);
    let _ = writeln!(s, "animations: {}", rig.clips.len());
    for (i, c) in rig.clips.iter().enumerate() {
        let _ = writeln!(
            s,
            "  animation {i}{}: {:.3} s, {} channels",
            label(&c.name),
            c.duration(),
            c.channels.len() + c.weights.len()
        );
        for w in c.weights.iter().take(SHOWN) {
            let mesh = rig.nodes[w.node]
                .mesh
                .map_or(String::new(), |m| format!("mesh {m}, "));
            let _ = writeln!(
                s,
                "    morph weights of node {} ({mesh}{} targets): {:?}, {} keys",
                w.node,
                w.targets,
                w.interpolation,
                w.times.len()
            );
        }
        if c.weights.len() > SHOWN {
            let _ = writeln!(
                s,
                "    ... {} more morph-weight channels",
                c.weights.len() - SHOWN
            );
        }
    }
    rest_box(&mut s, rig);
    lanes(&mut s, rig);
    for w in crate::rig::warning::summary(&rig.warnings, false) {
        let _ = writeln!(s, "warning: {w}");
    }
    s
}

/// Long lists (RecursiveSkeletons has 84 skins) show this many entries and a summary.
const SHOWN: usize = 8;

/// ` "name"`, or nothing for an unnamed thing.
fn label(n: &Option<String>) -> String {
    n.as_deref().map_or(String::new(), |n| format!(" {n:?}"))
}

/// Where the triangles' normals come from: the file, or generated smooth or flat (from the
/// importer's notes, one per primitive it gave normals).
fn normals(s: &mut String, rig: &Rig) {
    use crate::rig::warning::Kind;
    let with = rig
        .meshes
        .iter()
        .flat_map(|m| &m.primitives)
        .filter(|p| p.normals.is_some())
        .count();
    let count = |kind| rig.warnings.iter().filter(|w| w.kind == kind).count();
    let (smooth, flat) = (count(Kind::NormalsGenerated), count(Kind::FlatNormals));
    let file = with.saturating_sub(smooth + flat);
    let mut parts = vec![format!("{file} primitive(s) from the file")];
    if smooth > 0 {
        parts.push(format!("{smooth} generated smooth (angle-weighted)"));
    }
    if flat > 0 {
        parts.push(format!(
            "{flat} generated flat (face normals, vertices unwelded)"
        ));
    }
    let _ = writeln!(s, "normals: {}", parts.join(", "));
}

/// The skins and their joint counts.
fn skins(s: &mut String, rig: &Rig) {
    let _ = writeln!(s, "skins: {}", rig.skins.len());
    for (i, sk) in rig.skins.iter().enumerate().take(SHOWN) {
        let _ = writeln!(
            s,
            "  skin {i}{}: {} joints",
            label(&sk.name),
            sk.joints.len()
        );
    }
    if rig.skins.len() > SHOWN {
        let lo = rig.skins.iter().map(|k| k.joints.len()).min().unwrap_or(0);
        let hi = rig.skins.iter().map(|k| k.joints.len()).max().unwrap_or(0);
        let _ = writeln!(
            s,
            "  ... {} more skins ({lo} to {hi} joints each)",
            rig.skins.len() - SHOWN
        );
    }
}

/// The meshes, and the nodes that instantiate them.
fn meshes(s: &mut String, rig: &Rig) {
    let _ = writeln!(s, "meshes: {}", rig.meshes.len());
    for (i, m) in rig.meshes.iter().enumerate() {
        let verts: usize = m.primitives.iter().map(|p| p.positions.len()).sum();
        let infl = m
            .primitives
            .iter()
            .map(|p| p.max_influences)
            .max()
            .unwrap_or(0);
        let _ = writeln!(
            s,
            "  mesh {i}{}: {} primitive(s), {verts} vertices, max influences {infl}",
            label(&m.name),
            m.primitives.len()
        );
        if m.targets() > 0 {
            let names = if m.target_names.is_empty() {
                String::new()
            } else {
                format!(", names {:?}", m.target_names)
            };
            let _ = writeln!(
                s,
                "    morph targets: {}, default weights {:?}{names}",
                m.targets(),
                m.weights
            );
        }
    }
    normals(s, rig);
    let _ = writeln!(s, "mesh nodes:");
    let instances: Vec<_> = rig.mesh_nodes().collect();
    for &(node, mesh, skin) in instances.iter().take(SHOWN) {
        let skin = skin.map_or("no skin".to_string(), |k| format!("skin {k}"));
        let weights = rig.nodes[node]
            .weights
            .as_ref()
            .map_or(String::new(), |w| format!(", morph weights {w:?}"));
        let _ = writeln!(
            s,
            "  node {node}{}: mesh {mesh}, {skin}{weights}",
            label(&rig.nodes[node].name)
        );
    }
    if instances.len() > SHOWN {
        let _ = writeln!(s, "  ... {} more mesh nodes", instances.len() - SHOWN);
    }
}

/// The box of the rest pose skinned in `f32`.
fn rest_box(s: &mut String, rig: &Rig) {
    match pose(rig, None, LaneKind::F32) {
        Ok(posed) => match bounds(posed.iter().flat_map(|p| &p.positions)) {
            Some(b) => {
                let _ = writeln!(
                    s,
                    "bounding box (rest pose, glTF world): min {:?} max {:?}, diagonal {}",
                    b.0,
                    b.1,
                    diagonal(b)
                );
            }
            None => {
                let _ = writeln!(s, "bounding box: no vertices");
            }
        },
        Err(e) => {
            let _ = writeln!(s, "bounding box: cannot pose in f32: {e}");
        }
    }
}

/// Which lanes hold the rig.
fn lanes(s: &mut String, rig: &Rig) {
    let k = asset_unit(rig);
    let _ = writeln!(s, "fixed point: asset unit 2^{k} model units");
    let _ = writeln!(s, "  f32: holds");
    match fixed_fits(rig) {
        Ok(frames) => {
            let _ = writeln!(
                s,
                "  I8F24 pose + I2F14 skinning: holds (rest pose, every key time and midpoint: {frames} frames)"
            );
        }
        Err(e) => {
            let _ = writeln!(s, "  I8F24 pose + I2F14 skinning: does not hold: {e}");
        }
    }
}

/// Cost of fitting every skinned mesh instance of a rig into one budget and layout.
#[derive(Clone, Debug, PartialEq)]
pub struct BudgetRow {
    /// The budget.
    pub budget: Budget,
    /// The layout.
    pub layout: Layout,
    /// Bones it holds.
    pub capacity: usize,
    /// Skins whose whole joint list fits.
    pub skins_fitting: usize,
    /// Draw calls without splitting ("unsplit"): one per skinned primitive.
    pub draws: usize,
    /// Draw calls after splitting the primitives of skins that do not fit, or why not.
    pub split: Result<(usize, usize), String>,
}

/// One row per budget and layout over every (mesh, skin) pair of the rig.
pub fn budget_rows(rig: &Rig, presets: &[Budget]) -> Vec<BudgetRow> {
    let mut pairs: Vec<(usize, usize)> = rig
        .mesh_nodes()
        .filter_map(|(_, m, s)| s.map(|s| (m, s)))
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut rows = Vec::new();
    for budget in presets {
        for layout in Layout::ALL {
            let capacity = budget.capacity(layout);
            let skins_fitting = rig
                .skins
                .iter()
                .filter(|s| s.joints.len() <= capacity)
                .count();
            let mut draws = 0;
            let mut split_draws = Ok((0usize, 0usize));
            for &(m, s) in &pairs {
                let fits = rig.skins[s].joints.len() <= capacity;
                for (p, prim) in rig.meshes[m].primitives.iter().enumerate() {
                    if prim.influences.is_none() {
                        continue;
                    }
                    draws += 1;
                    let Ok((d, dup)) = split_draws else { continue };
                    split_draws = if fits {
                        Ok((d + 1, dup))
                    } else if capacity == 0 {
                        Err(format!("{} holds no {} bone", budget.name, layout.name()))
                    } else {
                        match split(prim, capacity) {
                            Ok(sp) => Ok((d + sp.parts.len(), dup + sp.duplicated)),
                            Err(SplitError::ElementTooBig { element, bones, .. }) => Err(format!(
                                "mesh {m} primitive {p} element {element} needs {bones} bones"
                            )),
                            Err(e) => Err(e.to_string()),
                        }
                    };
                }
            }
            rows.push(BudgetRow {
                budget: *budget,
                layout,
                capacity,
                skins_fitting,
                draws,
                split: split_draws,
            });
        }
    }
    rows
}

/// The `skin budget` table.
pub fn budget_table(rig: &Rig, presets: &[Budget]) -> String {
    let mut s = String::new();
    let joints: Vec<String> = rig
        .skins
        .iter()
        .map(|k| k.joints.len().to_string())
        .collect();
    let _ = writeln!(
        s,
        "{} skin(s), joints per skin: {}",
        rig.skins.len(),
        if joints.is_empty() {
            "-".into()
        } else {
            joints.join(", ")
        }
    );
    let _ = writeln!(
        s,
        "{:<28} {:<6} {:>8} {:>12} {:>7} {:>12} {:>11}",
        "budget", "layout", "capacity", "skins fit", "unsplit", "split draws", "duplicated"
    );
    let rows = budget_rows(rig, presets);
    for r in &rows {
        let fit = format!("{}/{}", r.skins_fitting, rig.skins.len());
        let tail = match &r.split {
            Ok((d, dup)) => format!("{d:>12} {dup:>11}"),
            Err(why) => format!("  cannot split: {why}"),
        };
        let _ = writeln!(
            s,
            "{:<28} {:<6} {:>8} {:>12} {:>7} {tail}",
            r.budget.name,
            r.layout.name(),
            r.capacity,
            fit,
            r.draws
        );
    }
    let _ = writeln!(
        s,
        "what dual quaternion skinning (skin bake --skinning dqs) gains over 3x4 matrices:"
    );
    for budget in presets {
        let row = |layout| {
            rows.iter()
                .find(|r| r.budget == *budget && r.layout == layout)
        };
        if let (Some(lbs), Some(dq)) = (row(Layout::Affine3x4), row(Layout::DualQuat)) {
            let _ = writeln!(s, "  {:<26} {}", budget.name, dq_gain(lbs, dq));
        }
    }
    let _ = writeln!(
        s,
        "joints with scale or shear under dqs (Kavan et al.: a stretch of 6 entries a bone, \
         baked only when a joint has one) cost 2 more registers a bone:"
    );
    for budget in presets {
        let dq = rows
            .iter()
            .find(|r| r.budget == *budget && r.layout == Layout::DualQuat);
        if let Some(dq) = dq.filter(|dq| dq.capacity > 0) {
            let _ = writeln!(
                s,
                "  {:<26} {} bones a draw instead of {}",
                budget.name,
                dq.capacity / 2,
                dq.capacity
            );
        }
    }
    s
}

/// What the dual quaternion row `dq` gains over the 3×4 row `lbs` of the same budget.
fn dq_gain(lbs: &BudgetRow, dq: &BudgetRow) -> String {
    if dq.capacity == 0 {
        return "no dual quaternion mode (fixed-function matrix palette)".into();
    }
    let bones = format!(
        "{} bones a draw instead of {} (+{})",
        dq.capacity,
        lbs.capacity,
        dq.capacity.saturating_sub(lbs.capacity)
    );
    match (&lbs.split, &dq.split) {
        (Ok((d3, dup3)), Ok((dd, dupd))) => {
            format!("{bones}; split draws {d3} -> {dd}, duplicated vertices {dup3} -> {dupd}")
        }
        (Err(_), Ok((dd, dupd))) => {
            format!("{bones}; splits into {dd} draws ({dupd} duplicated vertices) where 3x4 cannot")
        }
        (_, Err(why)) => format!("{bones}; still cannot split: {why}"),
    }
}
