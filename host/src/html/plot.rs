//! The report's plots, as SVG (plotters): the error of each path over a clip's time, and
//! the bones each budget holds against the model's skins.
//!
//! ```
//! use skin_host::html::plot::{error_over_time, Series};
//! let svg = error_over_time(
//!     "clip 0",
//!     &[Series { name: "core f32 vs f64".into(), points: vec![(0.0, 1e-7), (0.5, 2e-7)] }],
//!     &[("f32 limit", 1e-5)],
//! )?;
//! assert!(svg.starts_with("<svg") && svg.contains("core f32 vs f64"));
//! # Ok::<(), String>(())
//! ```

use plotters::prelude::*;

/// One line of a plot: a name and its `(x, y)` points.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Its name in the legend.
    pub name: String,
    /// Its points, `x` increasing.
    pub points: Vec<(f64, f64)>,
}

/// The smallest error a log-scale plot shows (exact agreement is drawn there).
pub const FLOOR: f64 = 1e-10;

/// Line colours, one a series.
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// Limit line colours, one a limit: black for the first (f32), dark orange for the second
/// (fixed, whose series is orange).
const LIMIT_COLOURS: [RGBColor; 2] = [RGBColor(0, 0, 0), RGBColor(190, 90, 0)];

/// A log-scale plot of `series` (x: seconds, y: error as a fraction of the extent; values
/// below [`FLOOR`] drawn at it) with horizontal `limits` `(name, value)`, as SVG.
pub fn error_over_time(
    title: &str,
    series: &[Series],
    limits: &[(&str, f64)],
) -> Result<String, String> {
    let ys = series.iter().flat_map(|s| s.points.iter().map(|p| p.1));
    let top = ys
        .chain(limits.iter().map(|l| l.1))
        .filter(|v| v.is_finite())
        .fold(FLOOR, f64::max)
        * 4.0;
    let xs = || series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let x0 = xs().fold(f64::INFINITY, f64::min).min(0.0);
    let x1 = xs().fold(0.0, f64::max).max(x0 + 1e-3);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (760, 320)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let (plot, legend) = root.split_horizontally(560);
        let mut chart = ChartBuilder::on(&plot)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(64)
            .build_cartesian_2d(x0..x1, (FLOOR..top).log_scale())
            .map_err(e)?;
        chart
            .configure_mesh()
            .x_desc("time (s)")
            .y_desc("largest error / extent")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(e)?;
        for (i, s) in series.iter().enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let points = s.points.iter().map(|&(x, y)| (x, clamp(y, top)));
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(e)?;
            key(&legend, i, &s.name, colour.stroke_width(2)).map_err(e)?;
            chart
                .draw_series(points.map(|p| Circle::new(p, 3, colour.filled())))
                .map_err(e)?;
        }
        for (k, &(name, v)) in limits.iter().enumerate() {
            let style = LIMIT_COLOURS[k % LIMIT_COLOURS.len()].stroke_width(2);
            chart
                .draw_series(DashedLineSeries::new([(x0, v), (x1, v)], 6, 4, style))
                .map_err(e)?;
            key(
                &legend,
                series.len() + k,
                &format!("{name} (dashed)"),
                style,
            )
            .map_err(e)?;
        }
        root.present().map_err(e)?;
    }
    Ok(svg)
}

/// Line `i` of a legend drawn in `area`: a stroke of `style` and `name`.
fn key<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    i: usize,
    name: &str,
    style: ShapeStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let y = 50 + 20 * i as i32;
    area.draw(&PathElement::new([(8, y), (30, y)], style))?;
    area.draw(&Text::new(name.to_owned(), (36, y - 7), ("sans-serif", 13)))
}

/// An error on the plot: at least [`FLOOR`], infinite or NaN drawn at the top.
fn clamp(y: f64, top: f64) -> f64 {
    if y.is_finite() {
        y.clamp(FLOOR, top)
    } else {
        top
    }
}

/// A horizontal bar chart: one row a label, one bar a value of it (`bars` names the
/// values, coloured in that order), and a vertical `marker` `(name, value)`, as SVG.
pub fn bars(
    title: &str,
    rows: &[(String, Vec<f64>)],
    bars: &[&str],
    marker: Option<(&str, f64)>,
) -> Result<String, String> {
    let n = rows.len().max(1) as f64;
    let top = rows
        .iter()
        .flat_map(|r| r.1.iter().copied())
        .chain(marker.map(|m| m.1))
        .fold(1.0, f64::max)
        * 1.1;
    let height = 90 + 14 * (bars.len() as u32 + 1) * rows.len() as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (640, height)).into_drawing_area();
        let e = |e: DrawingAreaErrorKind<_>| e.to_string();
        root.fill(&WHITE).map_err(e)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(190)
            .build_cartesian_2d(0.0..top, 0.0..n)
            .map_err(e)?;
        let label = |y: &f64| {
            let i = (n - y - 0.5).round();
            match rows.get(i as usize) {
                Some(r) if (y.fract() - 0.5).abs() < 1e-6 && i >= 0.0 => r.0.clone(),
                _ => String::new(),
            }
        };
        chart
            .configure_mesh()
            .disable_y_mesh()
            .y_labels(2 * rows.len() + 1)
            .y_label_formatter(&label)
            .x_label_formatter(&|v| format!("{v:.0}"))
            .x_desc("bones")
            .draw()
            .map_err(e)?;
        let share = 0.8 / bars.len().max(1) as f64;
        for (b, name) in bars.iter().enumerate() {
            let colour = COLOURS[b % COLOURS.len()];
            let rects = rows.iter().enumerate().filter_map(|(i, r)| {
                let v = *r.1.get(b)?;
                let y = n - i as f64 - 0.9 + share * b as f64;
                Some(Rectangle::new([(0.0, y), (v, y + share)], colour.filled()))
            });
            chart
                .draw_series(rects)
                .map_err(e)?
                .label(*name)
                .legend(move |(x, y)| {
                    Rectangle::new([(x, y - 5), (x + 14, y + 5)], colour.filled())
                });
        }
        if let Some((name, v)) = marker {
            let red = RGBColor(200, 30, 30);
            chart
                .draw_series(LineSeries::new([(v, 0.0), (v, n)], red.stroke_width(2)))
                .map_err(e)?
                .label(name)
                .legend(move |(x, y)| PathElement::new([(x, y), (x + 18, y)], red));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()
            .map_err(e)?;
        root.present().map_err(e)?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bars_name_every_row() {
        let rows = vec![
            ("vs_1_1".to_string(), vec![32.0, 24.0]),
            ("gles2".to_string(), vec![42.0, 32.0]),
        ];
        let svg = bars("bones", &rows, &["3x4", "4x4"], Some(("skin", 19.0))).unwrap();
        for word in ["vs_1_1", "gles2", "3x4", "4x4", "skin"] {
            assert!(svg.contains(word), "{word} missing");
        }
        assert!(svg.matches("<rect").count() >= 4);
    }

    #[test]
    fn errors_beyond_the_scale_are_drawn_at_its_ends() {
        assert_eq!(clamp(0.0, 1.0), FLOOR);
        assert_eq!(clamp(f64::INFINITY, 1.0), 1.0);
        assert_eq!(clamp(f64::NAN, 1.0), 1.0);
        assert_eq!(clamp(1e-3, 1.0), 1e-3);
    }
}
