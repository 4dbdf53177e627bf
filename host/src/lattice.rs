//! Lattice files (`skin bake --lattice FILE`, `skin render --backend cpu --lattice FILE`): a
//! lattice free-form deformation ([`skin_core::lattice`]) with its control points moved,
//! still or keyed over time. The baker stores it in the asset (every key's offsets for every
//! point, in asset units), whose player applies it after skinning at each frame's time.
//!
//! The file is JSON, in the model's units and glTF world space (the frame `skin pose`
//! prints):
//!
//! ```json
//! {
//!   "min": [-0.3, 0.8, -0.2], "max": [0.3, 1.4, 0.25],
//!   "degree": [2, 2, 2],
//!   "keys": [
//!     {"time": 0.0, "moves": []},
//!     {"time": 1.0, "moves": [{"point": [1, 2, 1], "by": [0.0, 0.15, 0.0]}]}
//!   ]
//! }
//! ```
//!
//! `min`/`max` are the box's corners, `degree` the lattice's degrees along x, y, z (1 to 3).
//! Each key moves control points `point` (`[i, j, k]`, from `[0, 0, 0]` at `min` to the
//! degrees at `max`) `by` an offset from where they rest; points a key does not name rest.
//! Between keys the offsets are interpolated linearly; before the first key and after the
//! last they hold. A still lattice may give `"moves"` at the top level instead of `"keys"`.
//!
//! ```
//! use skin_host::lattice::LatticeFile;
//! let file = LatticeFile::parse(r#"{"min": [0, 0, 0], "max": [1, 1, 1], "degree": [1, 1, 1],
//!     "moves": [{"point": [1, 1, 1], "by": [0.5, 0, 0]}]}"#).unwrap();
//! assert_eq!(file.keys.len(), 1);
//! assert_eq!(file.keys[0].moves[0].by, [0.5, 0.0, 0.0]);
//! assert!(LatticeFile::parse(r#"{"min": [0, 0, 0]}"#).unwrap_err().contains("max"));
//! ```

use serde_json::Value;

/// One control point moved by an offset.
#[derive(Clone, Debug, PartialEq)]
pub struct Move {
    /// The point's index `[i, j, k]`.
    pub point: [u8; 3],
    /// Its offset from rest, model units.
    pub by: [f32; 3],
}

/// The moves at one time.
#[derive(Clone, Debug, PartialEq)]
pub struct Key {
    /// Seconds.
    pub time: f32,
    /// The points moved.
    pub moves: Vec<Move>,
}

/// A lattice file (see the module docs).
#[derive(Clone, Debug, PartialEq)]
pub struct LatticeFile {
    /// The box's lower corner, model units.
    pub min: [f32; 3],
    /// Its upper corner.
    pub max: [f32; 3],
    /// Degrees along x, y, z.
    pub degree: [u8; 3],
    /// Keys by increasing time (one key at time 0 for a still lattice).
    pub keys: Vec<Key>,
}

fn numbers<const N: usize>(v: &Value, what: &str) -> Result<[f64; N], String> {
    let items = v
        .as_array()
        .filter(|a| a.len() == N)
        .ok_or_else(|| format!("{what} must be an array of {N} numbers, not {v}"))?;
    let mut out = [0.0; N];
    for (o, item) in out.iter_mut().zip(items) {
        *o = item
            .as_f64()
            .ok_or_else(|| format!("{what} must be an array of {N} numbers, not {v}"))?;
    }
    Ok(out)
}

fn moves(v: &Value, what: &str) -> Result<Vec<Move>, String> {
    let list = v
        .as_array()
        .ok_or_else(|| format!("{what} must be an array of {{\"point\", \"by\"}} objects"))?;
    list.iter()
        .enumerate()
        .map(|(n, m)| {
            let what = format!("{what}[{n}]");
            let point = numbers::<3>(&m["point"], &format!("{what}.point"))?;
            if point
                .iter()
                .any(|&i| !(0.0..=255.0).contains(&i) || i.fract() != 0.0)
            {
                return Err(format!(
                    "{what}.point must hold whole numbers 0 to 255, not {:?}",
                    point
                ));
            }
            let by = numbers::<3>(&m["by"], &format!("{what}.by"))?;
            Ok(Move {
                point: point.map(|i| i as u8),
                by: by.map(|b| b as f32),
            })
        })
        .collect()
}

impl LatticeFile {
    /// Read a lattice file's text; the reason as one line when it is malformed (the values
    /// themselves are checked by [`Self::at`]).
    pub fn parse(text: &str) -> Result<Self, String> {
        let doc: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let min = numbers::<3>(&doc["min"], "min")?.map(|v| v as f32);
        let max = numbers::<3>(&doc["max"], "max")?.map(|v| v as f32);
        let degree = numbers::<3>(&doc["degree"], "degree")?;
        if degree
            .iter()
            .any(|&d| !(0.0..=255.0).contains(&d) || d.fract() != 0.0)
        {
            return Err(format!("degree must hold whole numbers, not {degree:?}"));
        }
        let keys = match (&doc["keys"], &doc["moves"]) {
            (Value::Null, Value::Null) => vec![Key {
                time: 0.0,
                moves: Vec::new(),
            }],
            (Value::Null, m) => vec![Key {
                time: 0.0,
                moves: moves(m, "moves")?,
            }],
            (Value::Array(keys), Value::Null) if !keys.is_empty() => {
                let mut out: Vec<Key> = Vec::new();
                for (n, k) in keys.iter().enumerate() {
                    let time = k["time"]
                        .as_f64()
                        .filter(|t| t.is_finite())
                        .ok_or_else(|| format!("keys[{n}].time must be a finite number"))?
                        as f32;
                    if out.last().is_some_and(|last| time <= last.time) {
                        return Err(format!(
                            "keys[{n}].time {time} does not follow the key before it: times must increase"
                        ));
                    }
                    let moves = moves(&k["moves"], &format!("keys[{n}].moves"))?;
                    out.push(Key { time, moves });
                }
                out
            }
            _ => {
                return Err(
                    "give either \"keys\" (a non-empty array) or \"moves\", not both".into(),
                )
            }
        };
        Ok(Self {
            min,
            max,
            degree: degree.map(|d| d as u8),
            keys,
        })
    }
}
