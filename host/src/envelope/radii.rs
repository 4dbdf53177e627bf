//! Per-joint envelope radii: `--inner`/`--outer` for every joint, and a radii file for
//! some or all of them.
//!
//! The radii file is text, one joint a line: the joint node's name (or `#N` for node `N`),
//! its inner and its outer radius in model units, separated by white space; the name is
//! everything before the last two fields, so it may hold spaces. Empty lines and lines
//! starting with `//` are ignored:
//!
//! ```text
//! // CesiumMan: thicker torso
//! Skeleton_torso_joint_1 0.05 0.2
//! #12                    0.02 0.08
//! ```

use skin_core::envelope::Radii;

use super::error::WeightsError;
use crate::rig::Rig;

/// Which joint a line names.
#[derive(Clone, Debug, PartialEq)]
enum Joint {
    Name(String),
    Node(usize),
}

/// The radii of every joint: a default and per-joint entries.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RadiiTable {
    default: Option<Radii>,
    lines: Vec<(usize, Joint, Radii)>,
}

impl RadiiTable {
    /// Every joint gets `default` unless a line of the file says otherwise.
    pub fn new(default: Option<Radii>) -> Self {
        Self {
            default,
            lines: Vec::new(),
        }
    }

    /// Add the lines of a radii file (see the module docs).
    pub fn parse(mut self, text: &str) -> Result<Self, WeightsError> {
        for (n, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with("//") {
                continue;
            }
            let err = |reason: String| WeightsError::RadiiFile {
                line: n + 1,
                reason,
            };
            let mut fields = line.rsplitn(3, char::is_whitespace);
            let (Some(outer), Some(inner), Some(name)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(err(format!("{line:?} is not `JOINT INNER OUTER`")));
            };
            let number = |s: &str| {
                s.parse::<f32>()
                    .map_err(|_| err(format!("{s:?} is not a number")))
            };
            let (inner, outer) = (number(inner)?, number(outer.trim())?);
            let name = name.trim();
            let joint = match name.strip_prefix('#').map(str::parse::<usize>) {
                Some(Ok(node)) => Joint::Node(node),
                _ => Joint::Name(name.to_string()),
            };
            let radii = Radii::new(inner, outer).map_err(|source| WeightsError::Radii {
                joint: name.to_string(),
                source,
            })?;
            self.lines.push((n + 1, joint, radii));
        }
        Ok(self)
    }

    /// Check that every line names a node of `rig`, so that a misspelt joint is not
    /// silently left at the default.
    pub fn check(&self, rig: &Rig) -> Result<(), WeightsError> {
        for (line, joint, _) in &self.lines {
            let known = match joint {
                Joint::Node(n) => *n < rig.nodes.len(),
                Joint::Name(name) => rig.nodes.iter().any(|n| n.name.as_deref() == Some(name)),
            };
            if !known {
                return Err(WeightsError::RadiiFile {
                    line: *line,
                    reason: format!(
                        "{} names no node of the model ({} nodes)",
                        label(joint),
                        rig.nodes.len()
                    ),
                });
            }
        }
        Ok(())
    }

    /// The radii of the joint `node` of `rig`: its last line in the file, else the default.
    pub fn of(&self, rig: &Rig, node: usize) -> Result<Radii, WeightsError> {
        let name = rig.nodes[node].name.as_deref();
        self.lines
            .iter()
            .rev()
            .find(|(_, j, _)| match j {
                Joint::Node(n) => *n == node,
                Joint::Name(s) => Some(s.as_str()) == name,
            })
            .map(|(_, _, r)| *r)
            .or(self.default)
            .ok_or_else(|| WeightsError::NoRadii {
                joint: joint_label(rig, node),
            })
    }
}

fn label(joint: &Joint) -> String {
    match joint {
        Joint::Node(n) => format!("#{n}"),
        Joint::Name(s) => format!("{s:?}"),
    }
}

/// A joint node for messages: its name, or `#N`.
pub fn joint_label(rig: &Rig, node: usize) -> String {
    rig.nodes[node]
        .name
        .clone()
        .unwrap_or_else(|| format!("#{node}"))
}
