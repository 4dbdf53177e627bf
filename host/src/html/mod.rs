//! `skin validate --report DIR`: the validation of a model as one self-contained static
//! HTML page (every picture a `data:` URI, no script, nothing fetched when it is viewed),
//! and an index page linking the pages of several models.
//!
//! A model's page holds the error table of [`Report::table`]; per clip, each path's
//! largest error in every validated frame ([`Report::over_time`]) plotted against time with
//! the limits; per-vertex heat maps of core fixed vs `f64` and GPU vs core `f32` at their
//! worst frames ([`Report::heat`]), drawn on the posed model; the palette split for the
//! validated budget, the firmware's (`vs_1_1`) and the smallest preset, each part its own
//! colour; the budget
//! table with a bar chart of the bones each budget holds against the largest skin; and the
//! CPU and GPU pictures of the frame where they differ most, with their difference (and how
//! dual quaternion skinning's pictures compare, when it was validated).
//!
//! ```no_run
//! use skin_host::gpu::Reference;
//! use skin_host::html::{page, Model};
//! use skin_host::validate::{validate, Options};
//! let rig = skin_host::import::from_path("CesiumMan.glb".as_ref())?;
//! let options = Options::default();
//! let report = validate(&rig, &Reference::new()?, &options, |_, _| {})?;
//! let html = page(&Model { name: "CesiumMan.glb", rig: &rig, report: &report, options: &options })?;
//! std::fs::write("CesiumMan.html", html)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod draw;
pub mod plot;

use std::fmt::Write as _;

use base64::Engine as _;
use skin_core::budget::{Budget, Layout};

use crate::animation::GAIN;
use crate::inspect::budget_rows;
use crate::oracle::{self, PosedPrimitive64};
use crate::picture::Picture;
use crate::rig::Rig;
use crate::split::split;
use crate::validate::{Heat, Options, Report};

use draw::Drawing;
use plot::Series;

/// The size of the report's model drawings.
const DRAWING: (u16, u16) = (320, 320);

/// One validated model.
pub struct Model<'a> {
    /// Its file name, shown as the title.
    pub name: &'a str,
    /// The model.
    pub rig: &'a Rig,
    /// Its validation.
    pub report: &'a Report,
    /// What was validated.
    pub options: &'a Options,
}

/// One line of the index page.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The model's file name.
    pub name: String,
    /// Its page's file name, beside the index.
    pub page: String,
    /// Vertices.
    pub vertices: usize,
    /// Frames validated.
    pub frames: usize,
    /// What exceeded its threshold (empty: passed).
    pub failures: Vec<String>,
    /// Seconds the validation and the page took.
    pub seconds: f64,
}

/// The file name of `name`'s page: its letters, digits, `-`, `_` and `.` kept, the rest
/// `_`, then `.html`.
///
/// ```
/// assert_eq!(skin_host::html::page_file("Cesium Man.glb"), "Cesium_Man.glb.html");
/// ```
pub fn page_file(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.html")
}

/// `s` with HTML's special characters escaped.
pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// An `<img>` of `bytes` (MIME type `mime`) as a `data:` URI.
fn img(mime: &str, bytes: &[u8], alt: &str) -> String {
    let data = base64::engine::general_purpose::STANDARD.encode(bytes);
    format!(
        "<img src=\"data:{mime};base64,{data}\" alt=\"{}\">",
        escape(alt)
    )
}

fn svg(svg: &str, alt: &str) -> String {
    img("image/svg+xml", svg.as_bytes(), alt)
}

fn png(picture: &Picture, alt: &str) -> Result<String, String> {
    let bytes = picture.png_bytes().map_err(|e| e.to_string())?;
    Ok(img("image/png", &bytes, alt))
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em;max-width:1400px;color:#222}\
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #bbb;padding:3px 8px;text-align:right}\
th{background:#eee}td:first-child,td:nth-child(2){text-align:left}.fail{color:#b00;font-weight:bold}\
.ok{color:#070}figure{display:inline-block;margin:0 1em 1em 0;vertical-align:top}\
figcaption{font-size:90%;max-width:760px}.model figcaption{max-width:320px}.scale{height:12px;width:320px;border:1px solid #888}";

/// The start of a page titled `title`.
fn head(title: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{t}</title>\
         <style>{STYLE}</style></head><body>\n<h1>{t}</h1>\n",
        t = escape(title)
    )
}

/// The page of one validated model.
pub fn page(m: &Model<'_>) -> Result<String, String> {
    let r = m.report;
    let mut s = head(&format!("skin validate: {}", m.name));
    let failures = r.failures();
    let verdict = if failures.is_empty() {
        "<p class=\"ok\">Result: pass.</p>".to_string()
    } else {
        format!(
            "<p class=\"fail\">Result: FAIL: {}.</p>",
            escape(&failures.join("; "))
        )
    };
    let _ = write!(
        s,
        "{verdict}\n<ul><li>adapter: {}</li><li>{} vertices, {} frames; extent (rest-pose \
         bounding-box diagonal) {:.6} model units; fixed-point asset unit 2<sup>{}</sup> model \
         units</li><li>vertex-shader paths: budget {}, {} {} matrices, {} draw call(s) a \
         frame</li></ul>\n",
        escape(&r.adapter),
        r.vertices,
        r.frames.len(),
        r.extent,
        r.unit_exponent,
        r.budget.name,
        r.budget.capacity(r.layout),
        r.layout.name(),
        r.draw_calls
    );
    s += &error_table(r);
    s += &over_time(r)?;
    s += &heat_maps(m.rig, r)?;
    s += &splits(m.rig, m.options)?;
    s += &budgets(m.rig)?;
    s += &pictures(r)?;
    s += "</body></html>\n";
    Ok(s)
}

/// The error table.
fn error_table(r: &Report) -> String {
    let mut s = String::from(
        "<h2>Errors</h2>\n<table><tr><th>path</th><th>against</th><th>max error</th>\
         <th>mean error</th><th>max / extent</th><th>limit</th><th></th></tr>\n",
    );
    for row in &r.rows {
        let verdict = if row.passes() {
            "<td class=\"ok\">ok</td>"
        } else {
            "<td class=\"fail\">FAIL</td>"
        };
        if let Some(why) = &row.unavailable {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td colspan=\"5\">not available: {}</td></tr>",
                row.path,
                row.against,
                escape(why)
            );
            continue;
        }
        if row.errors.count == 0 {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td colspan=\"5\">none compared</td></tr>",
                row.path, row.against
            );
            continue;
        }
        let (rel, limit) = if row.normals {
            ("—".to_string(), format!("{:.2e} (unit vectors)", row.limit))
        } else {
            (
                format!("{:.2e}", row.errors.max / r.extent),
                format!("{:.2e} of the extent", row.limit / r.extent),
            )
        };
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{:.2e}</td><td>{:.2e}</td><td>{rel}</td><td>{limit}</td>{verdict}</tr>",
            row.path,
            row.against,
            row.errors.max,
            row.errors.mean()
        );
    }
    s + "</table>\n<p>Errors are each vertex's largest coordinate difference, in model units; the limits are docs/VALIDATION.md's.</p>\n"
}

/// Per clip, each position path's largest error in each frame.
fn over_time(r: &Report) -> Result<String, String> {
    let mut s = String::from("<h2>Error over time</h2>\n");
    let mut clips: Vec<usize> = r
        .frames
        .iter()
        .filter_map(|f| f.anim.map(|a| a.0))
        .collect();
    clips.dedup();
    if clips.is_empty() {
        s += "<p>The model has no clip: only the rest pose was validated.</p>\n";
    }
    let limits: Vec<(&str, f64)> = ["core f32", "core fixed"]
        .iter()
        .filter_map(|p| r.rows.iter().find(|row| row.path == *p))
        .map(|row| {
            let name = if row.path == "core fixed" {
                "fixed limit"
            } else {
                "f32 limit"
            };
            (name, row.limit / r.extent)
        })
        .collect();
    for c in clips {
        let series: Vec<Series> = r
            .rows
            .iter()
            .zip(&r.over_time)
            .filter(|(row, _)| !row.normals)
            .map(|(row, errors)| Series {
                name: format!("{} vs {}", row.path, row.against),
                points: r
                    .frames
                    .iter()
                    .zip(errors)
                    .filter_map(|(f, e)| match f.anim {
                        Some((fc, t)) if fc == c => Some((f64::from(t), e / r.extent)),
                        _ => None,
                    })
                    .collect(),
            })
            .collect();
        let plot = plot::error_over_time(&format!("clip {c}"), &series, &limits)?;
        let _ = writeln!(
            s,
            "<figure>{}<figcaption>Clip {c}: the largest error of each path in each of its {} \
             validated frames, as a fraction of the extent (log scale; exact agreement is \
             drawn at {:.0e}).</figcaption></figure>",
            svg(&plot, &format!("error over time, clip {c}")),
            series.first().map_or(0, |s| s.points.len()),
            plot::FLOOR
        );
    }
    Ok(s)
}

/// The triangles of `pose` (f32, model units) and, for each, its vertices' indices into
/// the blocks' vertices one after another.
fn triangles(rig: &Rig, pose: &[PosedPrimitive64]) -> (Vec<[[f32; 3]; 3]>, Vec<[usize; 3]>) {
    let (mut tris, mut ids) = (Vec::new(), Vec::new());
    let mut first = 0;
    for b in pose {
        let prim = &rig.meshes[b.mesh].primitives[b.primitive];
        for e in prim.elements().iter().filter(|e| e.len() == 3) {
            let v = [e[0], e[1], e[2]].map(|i| i as usize);
            if v.iter().all(|&i| i < b.positions.len()) {
                tris.push(v.map(|i| b.positions[i].map(|c| c as f32)));
                ids.push(v.map(|i| first + i));
            }
        }
        first += b.positions.len();
    }
    (tris, ids)
}

/// The per-vertex heat maps.
fn heat_maps(rig: &Rig, r: &Report) -> Result<String, String> {
    let mut s = String::from("<h2>Where the error is</h2>\n");
    for h in &r.heat {
        s += &heat_map(rig, r, h)?;
    }
    Ok(s)
}

fn heat_map(rig: &Rig, r: &Report, h: &Heat) -> Result<String, String> {
    let max = h.errors.iter().copied().fold(0.0, f64::max);
    let (tris, ids) = triangles(rig, &h.pose);
    let scale = |e: f64| if max > 0.0 { e / max } else { 0.0 };
    let drawing = Drawing::new(&tris, DRAWING, |t, v| {
        draw::heat_colour(scale(h.errors.get(ids[t][v]).copied().unwrap_or(0.0)))
    });
    let limit = r
        .rows
        .iter()
        .find(|row| row.path == h.path && row.against == h.against)
        .map_or(f64::NAN, |row| row.limit);
    let picture = match drawing {
        Some(d) => img(
            "image/png",
            &d.png().map_err(|e| e.to_string())?,
            &format!("{} vs {} per vertex", h.path, h.against),
        ),
        None => "<p>(no triangles to draw)</p>".into(),
    };
    Ok(format!(
        "<figure class=\"model\">{picture}<div class=\"scale\" style=\"background:{}\"></div>\
         <figcaption>{} vs {}, {}: each vertex's error on a scale from 0 to the largest, \
         {max:.2e} model units ({:.1} % of the limit {limit:.2e}).</figcaption></figure>\n",
        draw::heat_gradient(),
        h.path,
        h.against,
        r.describe(h.frame),
        100.0 * max / limit
    ))
}

/// The palette split of the rest pose for the validated budget and the firmware's.
fn splits(rig: &Rig, options: &Options) -> Result<String, String> {
    let mut s = String::from("<h2>Palette split</h2>\n");
    let Some(rest) = oracle::pose(rig, None) else {
        return Ok(s + "<p>The rest pose could not be posed.</p>\n");
    };
    // The validated budget, the firmware's, and the smallest preset (where splits show).
    let mut budgets = vec![(options.budget, options.layout)];
    let smallest = Budget::PRESETS
        .iter()
        .filter(|b| b.capacity(Layout::Affine3x4) > 0)
        .min_by_key(|b| b.capacity(Layout::Affine3x4));
    for b in [Some(&Budget::VS_1_1), smallest].into_iter().flatten() {
        if !budgets.contains(&(*b, Layout::Affine3x4)) {
            budgets.push((*b, Layout::Affine3x4));
        }
    }
    for (budget, layout) in budgets {
        let capacity = budget.capacity(layout);
        let mut tris = Vec::new();
        let mut colours = Vec::new();
        let (mut parts, mut duplicated) = (0, 0);
        for b in &rest {
            let prim = &rig.meshes[b.mesh].primitives[b.primitive];
            let at = |i: u32| b.positions[i as usize].map(|c| c as f32);
            if prim.influences.is_none() {
                for e in prim.elements().iter().filter(|e| e.len() == 3) {
                    tris.push([at(e[0]), at(e[1]), at(e[2])]);
                    colours.push([160, 160, 160]);
                }
                continue;
            }
            let sp = match split(prim, capacity) {
                Ok(sp) => sp,
                Err(e) => {
                    let _ = writeln!(
                        s,
                        "<p>{} ({} bones of {}): mesh {} primitive {} cannot be split: {}</p>",
                        budget.name,
                        capacity,
                        layout.name(),
                        b.mesh,
                        b.primitive,
                        escape(&e.to_string())
                    );
                    continue;
                }
            };
            duplicated += sp.duplicated;
            for part in sp.parts.iter().filter(|_| sp.arity == 3) {
                for t in part.indices.chunks_exact(3) {
                    let v = |k: usize| part.vertices[t[k] as usize];
                    tris.push([at(v(0)), at(v(1)), at(v(2))]);
                    colours.push(draw::part_colour(parts));
                }
                parts += 1;
            }
        }
        let picture = match Drawing::new(&tris, DRAWING, |t, _| colours[t]) {
            Some(d) => img(
                "image/png",
                &d.png().map_err(|e| e.to_string())?,
                &format!("palette split for {}", budget.name),
            ),
            None => "<p>(no triangles to draw)</p>".into(),
        };
        let _ = writeln!(
            s,
            "<figure class=\"model\">{picture}<figcaption>{} with {} matrices ({capacity} bones a palette): \
             {parts} part(s), one colour each (grey: unskinned), {duplicated} vertices \
             duplicated.</figcaption></figure>",
            budget.name,
            layout.name()
        );
    }
    Ok(s)
}

/// The budget table and the bar chart of bones per budget and layout.
fn budgets(rig: &Rig) -> Result<String, String> {
    let rows = budget_rows(rig, &Budget::PRESETS);
    let mut s = String::from(
        "<h2>Budgets</h2>\n<table><tr><th>budget</th><th>layout</th><th>bones</th>\
         <th>skins that fit</th><th>unsplit draws</th><th>split draws</th><th>duplicated</th></tr>\n",
    );
    for r in &rows {
        let tail = match &r.split {
            Ok((d, dup)) => format!("<td>{d}</td><td>{dup}</td>"),
            Err(why) => format!("<td colspan=\"2\">cannot split: {}</td>", escape(why)),
        };
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}/{}</td><td>{}</td>{tail}</tr>",
            r.budget.name,
            r.layout.name(),
            r.capacity,
            r.skins_fitting,
            rig.skins.len(),
            r.draws
        );
    }
    s += "</table>\n";
    let bars: Vec<(String, Vec<f64>)> = Budget::PRESETS
        .iter()
        .map(|b| {
            let per_layout = Layout::ALL.iter().map(|&l| b.capacity(l) as f64).collect();
            (b.name.to_string(), per_layout)
        })
        .collect();
    let layouts: Vec<&str> = Layout::ALL.iter().map(|l| l.name()).collect();
    let largest = rig.skins.iter().map(|k| k.joints.len()).max();
    let marker = largest.map(|j| ("largest skin's joints", j as f64));
    let chart = plot::bars("bones a palette holds", &bars, &layouts, marker)?;
    let _ = writeln!(
        s,
        "<figure>{}<figcaption>Bones each budget's palette holds, per matrix layout; a skin \
         with more joints than its budget holds is split into parts.</figcaption></figure>",
        svg(&chart, "bones per budget and layout")
    );
    Ok(s)
}

/// The CPU and GPU pictures of the frame where they differ most (linear blend skinning's),
/// and how dual quaternion skinning's compare.
fn pictures(r: &Report) -> Result<String, String> {
    let mut s = String::from("<h2>Pictures</h2>\n");
    let Some((gpu, cpu)) = &r.worst else {
        return Ok(s + "<p>No pictures were compared.</p>\n");
    };
    let p = &r.pictures;
    let _ = writeln!(
        s,
        "<p>{}: {} of {} pixels differ ({:.3} % equal); over all {} frames at worst {:.3} %, \
         mean {:.3} %, largest channel difference {} of 255.</p>",
        r.describe(p.worst_frame),
        p.worst_differing,
        p.total,
        100.0 * p.worst,
        p.frames,
        100.0 * p.worst,
        100.0 * p.mean,
        p.largest
    );
    let figures = [
        (
            cpu.clone(),
            "CPU rasteriser (f32), the firmware's picture".to_string(),
        ),
        (gpu.clone(), "GPU vertex shader".to_string()),
        (
            cpu.amplified(gpu, GAIN),
            format!("difference, each channel x{GAIN}"),
        ),
        (
            gpu.marked(cpu),
            "differing pixels in red on the GPU picture".to_string(),
        ),
    ];
    for (picture, caption) in figures {
        let _ = writeln!(
            s,
            "<figure class=\"model\">{}<figcaption>{caption}</figcaption></figure>",
            png(&picture, &caption)?
        );
    }
    match &r.dual_pictures {
        Some(Ok(d)) => {
            let _ = writeln!(
                s,
                "<p>Dual quaternion skinning's pictures: over all {} frames at worst {:.3} % \
                 equal ({}), mean {:.3} %, largest channel difference {} of 255.</p>",
                d.frames,
                100.0 * d.worst,
                r.describe(d.worst_frame),
                100.0 * d.mean,
                d.largest
            );
        }
        Some(Err(why)) => {
            let _ = writeln!(
                s,
                "<p>Dual quaternion skinning's pictures: not compared: {}.</p>",
                escape(why)
            );
        }
        None => {}
    }
    Ok(s)
}

/// The index page linking each model's page.
pub fn index(entries: &[Entry]) -> String {
    let mut s = head("skin validate");
    s += "<table><tr><th>model</th><th>vertices</th><th>frames</th><th>result</th><th>seconds</th></tr>\n";
    for e in entries {
        let result = if e.failures.is_empty() {
            "<td class=\"ok\">pass</td>".to_string()
        } else {
            format!(
                "<td class=\"fail\">FAIL: {}</td>",
                escape(&e.failures.join("; "))
            )
        };
        let _ = writeln!(
            s,
            "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td>{}</td>{result}<td>{:.1}</td></tr>",
            escape(&e.page),
            escape(&e.name),
            e.vertices,
            e.frames,
            e.seconds
        );
    }
    s + "</table>\n</body></html>\n"
}
