//! The parameters a tune changes: paths into the engine's parameter file with their bounds
//! and step (docs/tune.md, "SPEC").

use crate::engine::Params;
use serde_json::Value;

/// One step of a path: a field of an object or an element of an array.
#[derive(Clone, Debug, PartialEq)]
enum Step {
    Field(String),
    Index(usize),
}

/// One tuned parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Knob {
    /// Its path as written in the SPEC (`own[5]`, `tempo[1].opponent[3]`).
    pub key: String,
    path: Vec<Step>,
    /// The smallest value allowed.
    pub min: f64,
    /// The largest value allowed.
    pub max: f64,
    /// Its scale: SPSA's final perturbation, the GA's mutation size, PSO's spread.
    pub step: f64,
}

/// Every tuned parameter, in the SPEC's order, over a base parameter set.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The tuned parameters.
    pub knobs: Vec<Knob>,
    /// The base set as JSON (every key of the parameter file).
    base: Value,
}

/// Split `own[5]` / `tempo[1].opponent[3]` into steps.
fn parse_path(key: &str) -> Result<Vec<Step>, String> {
    let bad = || format!("{key:?} is not a parameter path (as own[5] or tempo[1].opponent[3])");
    let mut steps = Vec::new();
    for part in key.split('.') {
        let (name, mut rest) = part.split_at(part.find('[').unwrap_or(part.len()));
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(bad());
        }
        steps.push(Step::Field(name.to_string()));
        while !rest.is_empty() {
            let close = rest.find(']').ok_or_else(bad)?;
            let index = rest[1..close].parse::<usize>().map_err(|_| bad())?;
            steps.push(Step::Index(index));
            rest = &rest[close + 1..];
            if !rest.is_empty() && !rest.starts_with('[') {
                return Err(bad());
            }
        }
    }
    Ok(steps)
}

/// The value at `path` in `v`, if there is one.
fn at_mut<'a>(v: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, step| match step {
        Step::Field(f) => v.get_mut(f.as_str()),
        Step::Index(i) => v.get_mut(*i),
    })
}

impl Spec {
    /// Read a SPEC (a JSON object of `"path": {"min", "max", "step"}`) over `base`.
    pub fn parse(text: &str, base: &Params) -> Result<Spec, String> {
        let map: serde_json::Map<String, Value> =
            serde_json::from_str(text).map_err(|e| format!("not a JSON object: {e}"))?;
        if map.is_empty() {
            return Err("names no parameter".into());
        }
        let base = serde_json::to_value(base).map_err(|e| e.to_string())?;
        let mut knobs = Vec::new();
        for (key, bounds) in &map {
            let number = |field: &str| {
                bounds.get(field).and_then(Value::as_f64).ok_or_else(|| {
                    format!(
                        "{key}: give {{\"min\": …, \"max\": …, \"step\": …}} (no number {field:?})"
                    )
                })
            };
            let knob = Knob {
                key: key.clone(),
                path: parse_path(key)?,
                min: number("min")?,
                max: number("max")?,
                step: number("step")?,
            };
            if knob.min > knob.max || knob.step <= 0.0 {
                return Err(format!(
                    "{key}: min must not exceed max and step must be above 0"
                ));
            }
            let mut copy = base.clone();
            let start = at_mut(&mut copy, &knob.path)
                .and_then(|v| v.as_f64())
                .ok_or_else(|| format!("{key}: the parameter file has no number there"))?;
            if start < knob.min || start > knob.max {
                return Err(format!(
                    "{key}: the start {start} is outside [{}, {}]",
                    knob.min, knob.max
                ));
            }
            knobs.push(knob);
        }
        let spec = Spec { knobs, base };
        for corner in [
            spec.knobs.iter().map(|k| k.min).collect::<Vec<_>>(),
            spec.knobs.iter().map(|k| k.max).collect(),
        ] {
            spec.params(&corner)
                .map_err(|e| format!("a set at the bounds would not load: {e}"))?;
        }
        Ok(spec)
    }

    /// The base set's values of the tuned parameters: where a tune starts.
    pub fn start(&self) -> Vec<f64> {
        let mut base = self.base.clone();
        self.knobs
            .iter()
            .map(|k| {
                at_mut(&mut base, &k.path)
                    .and_then(|v| v.as_f64())
                    .unwrap_or(0.0)
            })
            .collect()
    }

    /// A set drawn uniformly within the bounds (the random individuals, particles and players).
    pub fn random(&self, rng: &mut impl rand::Rng) -> Vec<f64> {
        self.knobs
            .iter()
            .map(|k| rng.random_range(k.min..=k.max))
            .collect()
    }

    /// `values` clamped to each parameter's bounds.
    pub fn clamp(&self, values: &[f64]) -> Vec<f64> {
        values
            .iter()
            .zip(&self.knobs)
            .map(|(&v, k)| v.clamp(k.min, k.max))
            .collect()
    }

    /// The whole parameter file with the tuned parameters at `values` (whole numbers: the
    /// caller rounds), as JSON.
    pub fn json(&self, values: &[i64]) -> Value {
        let mut v = self.base.clone();
        for (k, &x) in self.knobs.iter().zip(values) {
            if let Some(slot) = at_mut(&mut v, &k.path) {
                *slot = Value::from(x);
            }
        }
        v
    }

    /// The parameters with the tuned ones at `values` rounded to the nearest; an error when
    /// the engine would refuse them.
    pub fn params(&self, values: &[f64]) -> Result<Params, String> {
        let whole: Vec<i64> = values.iter().map(|v| v.round() as i64).collect();
        let p: Params = serde_json::from_value(self.json(&whole)).map_err(|e| e.to_string())?;
        Params::from_json_over(&p, "{}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_reach_arrays_and_nested_sets() {
        let base = Params::connect6();
        let spec = Spec::parse(
            r#"{"own[5]": {"min": 0, "max": 200, "step": 4},
                "tempo[1].opponent[3]": {"min": 0, "max": 40, "step": 2},
                "width": {"min": 10, "max": 30, "step": 2}}"#,
            &base,
        )
        .unwrap();
        assert_eq!(
            spec.start(),
            vec![
                f64::from(base.own[5]),
                f64::from(base.tempo[1].opponent[3]),
                base.width as f64
            ]
        );
        let p = spec.params(&[99.4, 12.6, 21.0]).unwrap();
        assert_eq!((p.own[5], p.tempo[1].opponent[3], p.width), (99, 13, 21));
        // Everything else is the base's.
        assert_eq!(p.opponent, base.opponent);
        assert_eq!(p.tempo[0], base.tempo[0]);
    }

    #[test]
    fn bad_specs_are_refused_with_the_key_named() {
        let base = Params::connect6();
        let refused = |text: &str| Spec::parse(text, &base).unwrap_err();
        assert!(refused(r#"{"own[12]": {"min": 0, "max": 9, "step": 1}}"#).contains("own[12]"));
        assert!(refused(r#"{"owner": {"min": 0, "max": 9, "step": 1}}"#).contains("owner"));
        assert!(refused(r#"{"own[5": {"min": 0, "max": 9, "step": 1}}"#).contains("own[5"));
        assert!(refused(r#"{"tempo": {"min": 0, "max": 9, "step": 1}}"#).contains("no number"));
        // The start (52) outside the bounds.
        assert!(refused(r#"{"own[5]": {"min": 0, "max": 9, "step": 1}}"#).contains("outside"));
        assert!(refused(r#"{"own[5]": {"min": 0, "max": 90}}"#).contains("step"));
        assert!(refused(r#"{"own[5]": {"min": 0, "max": 90, "step": 0}}"#).contains("step"));
        // width 1 would not load.
        assert!(refused(r#"{"width": {"min": 1, "max": 30, "step": 1}}"#).contains("bounds"));
        assert!(refused("{}").contains("no parameter"));
        assert!(refused("[1]").contains("JSON object"));
    }

    #[test]
    fn clamping_keeps_values_in_their_bounds() {
        let spec = Spec::parse(
            r#"{"own[5]": {"min": 40, "max": 60, "step": 4}}"#,
            &Params::connect6(),
        )
        .unwrap();
        assert_eq!(spec.clamp(&[70.0]), vec![60.0]);
        assert_eq!(spec.clamp(&[10.0]), vec![40.0]);
        assert_eq!(spec.clamp(&[50.5]), vec![50.5]);
    }
}
