//! What the importer cleaned up, as [`Warning`]s of a few kinds, and their summary for a
//! person: one line per kind with a count and the first few things it concerns
//! ([`summary`]), or every warning in full when asked.
//!
//! ```
//! use skin_host::rig::warning::{summary, Kind, Warning};
//! let w: Vec<Warning> = (0..42)
//!     .map(|m| Warning::new(Kind::WeightSum, format!("mesh {m} primitive 0"), "3 vertices; renormalised"))
//!     .collect();
//! let lines = summary(&w, false);
//! assert_eq!(lines.len(), 1);
//! assert!(lines[0].starts_with("weights not summing to 1, renormalised: 42 ("));
//! assert!(lines[0].contains("mesh 0 primitive 0, mesh 1 primitive 0, mesh 2 primitive 0 and 39 more"));
//! assert_eq!(summary(&w, true).len(), 42);
//! ```

use std::fmt;

/// The kinds of clean-up the importer reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Normals not of unit length, normalised.
    NormalLength,
    /// Tangents' directions not of unit length, normalised.
    TangentLength,
    /// Weights not summing to one, renormalised.
    WeightSum,
    /// More than four influences a vertex, reduced to the four largest.
    Influences,
    /// Morph targets' TANGENT deltas, ignored (tangents are skinned, not morphed).
    MorphTangents,
    /// `mesh.extras.targetNames` not naming each target once, ignored.
    TargetNames,
    /// Triangles without normals, given smooth angle-weighted ones.
    NormalsGenerated,
    /// Triangles without normals, given their own face normals (flat shading, asked for).
    FlatNormals,
}

impl Kind {
    /// Whether this is a note on what the importer did for the model rather than a
    /// clean-up of bad data: commands print notes only with `--verbose`; `skin inspect`
    /// always lists them.
    pub fn is_note(self) -> bool {
        matches!(self, Kind::NormalsGenerated | Kind::FlatNormals)
    }

    /// What happened, in a few words.
    pub fn title(self) -> &'static str {
        match self {
            Kind::NormalLength => "normals not of unit length, normalised",
            Kind::TangentLength => "TANGENT directions not of unit length, normalised",
            Kind::WeightSum => "weights not summing to 1, renormalised",
            Kind::Influences => "more than 4 influences a vertex, reduced to the 4 largest",
            Kind::MorphTangents => "morph-target TANGENT deltas, ignored",
            Kind::TargetNames => "extras.targetNames not naming each target, ignored",
            Kind::NormalsGenerated => "no normals, smooth angle-weighted normals generated",
            Kind::FlatNormals => "no normals, flat face normals generated",
        }
    }
}

/// One thing the importer cleaned up: its kind, what it concerns (`mesh 3 "Body" primitive
/// 0`) and the details (counts, the worst value).
#[derive(Clone, Debug, PartialEq)]
pub struct Warning {
    /// Its kind.
    pub kind: Kind,
    /// What it concerns.
    pub subject: String,
    /// The details.
    pub detail: String,
}

impl Warning {
    /// A warning of `kind` about `subject`.
    pub fn new(kind: Kind, subject: impl Into<String>, detail: impl Into<String>) -> Self {
        Self {
            kind,
            subject: subject.into(),
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.subject, self.detail)
    }
}

/// How many subjects a summary line names before counting the rest.
pub const NAMED: usize = 3;

/// The warnings for a person: with `verbose`, every warning in full; otherwise one line per
/// kind (in order of first appearance) with the count, the first [`NAMED`] subjects and how
/// many more there are.
pub fn summary(warnings: &[Warning], verbose: bool) -> Vec<String> {
    if verbose {
        return warnings.iter().map(Warning::to_string).collect();
    }
    let mut kinds: Vec<Kind> = Vec::new();
    for w in warnings {
        if !kinds.contains(&w.kind) {
            kinds.push(w.kind);
        }
    }
    kinds
        .into_iter()
        .map(|kind| {
            let of: Vec<&Warning> = warnings.iter().filter(|w| w.kind == kind).collect();
            if let [only] = of.as_slice() {
                return format!("{}: {only}", kind.title());
            }
            let named: Vec<&str> = of.iter().take(NAMED).map(|w| w.subject.as_str()).collect();
            let more = of.len().saturating_sub(NAMED);
            let rest = if more > 0 {
                format!(" and {more} more; --verbose lists all")
            } else {
                String::new()
            };
            format!(
                "{}: {} ({}{rest})",
                kind.title(),
                of.len(),
                named.join(", ")
            )
        })
        .collect()
}
