//! Corrective files (`skin pose --correctives FILE`, `skin render --correctives FILE`): which
//! morph targets of a mesh are correctives, the joints that drive them and the poses they
//! were sculpted at. JSON, names as in the model:
//!
//! ```json
//! {
//!   "mesh": "arm",
//!   "sigma": 0.5,
//!   "joints": ["forearm"],
//!   "poses": [
//!     {"rotations": [[0, 0, 0.5, 0.8660254]], "targets": {"bend60": 1}},
//!     {"rotations": [[0, 0, 0.8660254, 0.5]], "targets": {"bend120": 1}}
//!   ]
//! }
//! ```
//!
//! `mesh` is a mesh's name or index (optional when one mesh has morph targets), `sigma` the
//! Gaussians' width σ in quaternion distance, `joints` the driving joints (node names, or
//! `#N` for node `N`). Each pose gives one local rotation `[x, y, z, w]` per driving joint
//! and the weights of the targets it names (by `extras.targetNames` or index); a corrective
//! target that a pose does not name has weight 0 there. The correctives are the targets
//! some pose names; the mesh's other targets keep their weights. The rest pose (the driving
//! joints' stored rotations) is added as one more pose with every corrective at 0.
//!
//! ```
//! use skin_host::psd::file::CorrectivesFile;
//! let f = CorrectivesFile::parse(r#"{"sigma": 0.5, "joints": ["elbow"],
//!     "poses": [{"rotations": [[0, 0, 0.5, 0.8660254]], "targets": {"bend": 1}}]}"#).unwrap();
//! assert_eq!(f.joints, ["elbow"]);
//! assert_eq!(f.poses[0].targets, [("bend".to_owned(), 1.0)]);
//! assert!(CorrectivesFile::parse(r#"{"joints": []}"#).unwrap_err().contains("sigma"));
//! ```

use serde_json::Value;

/// One sculpted pose.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    /// One local rotation per driving joint.
    pub rotations: Vec<[f64; 4]>,
    /// Target (name or index) and weight.
    pub targets: Vec<(String, f64)>,
}

/// A corrective file (see the module docs), names not yet resolved.
#[derive(Clone, Debug, PartialEq)]
pub struct CorrectivesFile {
    /// The mesh's name or index, if given.
    pub mesh: Option<String>,
    /// σ.
    pub sigma: f64,
    /// Driving joints.
    pub joints: Vec<String>,
    /// The sculpted poses.
    pub poses: Vec<Pose>,
}

/// A number, or a line naming `what`.
fn number(v: Option<&Value>, what: &str) -> Result<f64, String> {
    v.and_then(Value::as_f64)
        .ok_or_else(|| format!("correctives: {what} is missing or not a number"))
}

impl CorrectivesFile {
    /// Parse the JSON; a missing or mistyped field is one line naming it. Values are checked
    /// by [`super::solve`].
    pub fn parse(text: &str) -> Result<Self, String> {
        let v: Value =
            serde_json::from_str(text).map_err(|e| format!("correctives: not JSON: {e}"))?;
        let mesh = match v.get("mesh") {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Number(n)) => Some(n.to_string()),
            Some(_) => return Err("correctives: mesh is not a name or an index".into()),
        };
        let sigma = number(v.get("sigma"), "sigma")?;
        let joints = v
            .get("joints")
            .and_then(Value::as_array)
            .and_then(|a| a.iter().map(|j| j.as_str().map(str::to_owned)).collect())
            .ok_or("correctives: joints is missing or not a list of names")?;
        let poses = v
            .get("poses")
            .and_then(Value::as_array)
            .ok_or("correctives: poses is missing or not a list")?
            .iter()
            .enumerate()
            .map(|(i, p)| pose(p, i))
            .collect::<Result<_, _>>()?;
        Ok(CorrectivesFile {
            mesh,
            sigma,
            joints,
            poses,
        })
    }
}

fn pose(p: &Value, i: usize) -> Result<Pose, String> {
    let rotations = p
        .get("rotations")
        .and_then(Value::as_array)
        .ok_or(format!(
            "correctives: pose {i}: rotations is missing or not a list"
        ))?
        .iter()
        .enumerate()
        .map(|(r, q)| {
            let what = format!("pose {i} rotation {r}");
            let q = q
                .as_array()
                .filter(|q| q.len() == 4)
                .ok_or(format!("correctives: {what} is not [x, y, z, w]"))?;
            let mut out = [0.0; 4];
            for (o, c) in out.iter_mut().zip(q) {
                *o = number(Some(c), &what)?;
            }
            Ok(out)
        })
        .collect::<Result<_, String>>()?;
    let targets = p
        .get("targets")
        .and_then(Value::as_object)
        .ok_or(format!(
            "correctives: pose {i}: targets is missing or not an object"
        ))?
        .iter()
        .map(|(name, w)| {
            Ok((
                name.clone(),
                number(Some(w), &format!("pose {i} target {name}"))?,
            ))
        })
        .collect::<Result<_, String>>()?;
    Ok(Pose { rotations, targets })
}
