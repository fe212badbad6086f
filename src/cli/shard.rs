//! `--shard I/N`: one of N contiguous blocks of a batch's game lines, so that the outputs of
//! shards 1 … N, concatenated in order, are the output of the whole batch
//! (README, `cpbim solve`).

use super::input::{self, Inputs, Lines};
use anyhow::Result;

/// A shard: `index` (from 0) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// The environment variables a batch scheduler sets: Slurm job arrays (the task's id and the
/// array's first id and task count) and Kubernetes indexed Jobs (the index from 0).
const SLURM_ID: &str = "SLURM_ARRAY_TASK_ID";
const SLURM_MIN: &str = "SLURM_ARRAY_TASK_MIN";
const SLURM_COUNT: &str = "SLURM_ARRAY_TASK_COUNT";
const K8S_INDEX: &str = "JOB_COMPLETION_INDEX";

impl Shard {
    /// `I/N` (I from 1 to N), `auto` (Slurm's array variables) or `auto/N` (the index from
    /// Slurm's or Kubernetes' variables, N given), with the environment read by `env`.
    pub fn parse(spec: &str, env: &dyn Fn(&str) -> Option<String>) -> Result<Shard, String> {
        let (index, count) = match spec.split_once('/') {
            Some(("auto", n)) => (auto_index(env)?, number("N", n)?),
            Some((i, n)) => {
                let i = number("I", i)?;
                if i == 0 {
                    return Err("I counts from 1 (1/N … N/N)".into());
                }
                (i - 1, number("N", n)?)
            }
            None if spec == "auto" => {
                let count = env(SLURM_COUNT).ok_or_else(|| {
                    format!(
                        "{SLURM_COUNT} is not set (outside a Slurm job array give auto/N or I/N)"
                    )
                })?;
                (auto_index(env)?, number(SLURM_COUNT, &count)?)
            }
            None => return Err("give I/N (1/4), auto or auto/N".into()),
        };
        if count == 0 || index >= count {
            return Err(format!(
                "shard {} of {count} does not exist (1 … N, N at least 1)",
                index + 1
            ));
        }
        Ok(Shard { index, count })
    }

    /// This shard's game lines among `total`: `[from, to)`, `to` open for the last shard (it
    /// takes what follows too, such as a line that ends the input with an error).
    pub fn block(self, total: usize) -> (usize, Option<usize>) {
        let at = |i: usize| i * total / self.count;
        let to = (self.index + 1 < self.count).then(|| at(self.index + 1));
        (at(self.index), to)
    }
}

/// `text` as a whole number, or why not (naming `name`).
fn number(name: &str, text: &str) -> Result<usize, String> {
    text.trim()
        .parse::<usize>()
        .map_err(|_| format!("{name} is {text:?}, not a whole number"))
}

/// The index (from 0) a scheduler gave this task.
fn auto_index(env: &dyn Fn(&str) -> Option<String>) -> Result<usize, String> {
    if let Some(id) = env(SLURM_ID) {
        let id = number(SLURM_ID, &id)?;
        let min = env(SLURM_MIN).map_or(Ok(0), |v| number(SLURM_MIN, &v))?;
        return id
            .checked_sub(min)
            .ok_or_else(|| format!("{SLURM_ID} {id} is below {SLURM_MIN} {min}"));
    }
    if let Some(i) = env(K8S_INDEX) {
        return number(K8S_INDEX, &i);
    }
    Err(format!(
        "neither {SLURM_ID} (Slurm job array) nor {K8S_INDEX} (Kubernetes indexed Job) is set"
    ))
}

/// The games of `arg` that belong to `shard`: a batch's game lines of the shard's block (the
/// input is read twice: once to count them), one game in the first shard only.
pub fn read(arg: Option<&str>, game_id: Option<u64>, shard: Shard) -> Result<Inputs> {
    if arg.is_none_or(|a| a == "-") {
        super::usage!("--shard needs a file of games (it counts the file's game lines first; standard input can be read only once)");
    }
    let total = match input::read(arg, game_id)? {
        Inputs::One(text) => {
            return Ok(match shard.index {
                0 => Inputs::One(text),
                _ => Inputs::Lines(Lines::empty()),
            })
        }
        Inputs::Lines(lines) => lines.take_while(Result::is_ok).count(),
    };
    let (from, to) = shard.block(total);
    match input::read(arg, game_id)? {
        Inputs::Lines(lines) => Ok(Inputs::Lines(lines.within(from, to))),
        one => Ok(one),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn blocks_cover_every_line_once_in_order_and_differ_by_at_most_one() {
        for total in 0..40 {
            for count in 1..9 {
                let mut next = 0;
                let mut sizes = Vec::new();
                for index in 0..count {
                    let (from, to) = Shard { index, count }.block(total);
                    assert_eq!(from, next);
                    let to = to.unwrap_or(total);
                    sizes.push(to - from);
                    next = to;
                }
                assert_eq!(next, total);
                let (lo, hi) = (sizes.iter().min().unwrap(), sizes.iter().max().unwrap());
                assert!(hi - lo <= 1, "{total} in {count}: {sizes:?}");
            }
        }
    }

    #[test]
    fn shards_are_read_from_the_argument_or_the_scheduler() {
        assert_eq!(
            Shard::parse("2/4", &no_env),
            Ok(Shard { index: 1, count: 4 })
        );
        for bad in ["0/4", "5/4", "1/0", "x/2", "3", "auto"] {
            assert!(Shard::parse(bad, &no_env).is_err(), "{bad}");
        }
        let slurm = |k: &str| match k {
            "SLURM_ARRAY_TASK_ID" => Some("7".to_string()),
            "SLURM_ARRAY_TASK_MIN" => Some("5".to_string()),
            "SLURM_ARRAY_TASK_COUNT" => Some("3".to_string()),
            _ => None,
        };
        assert_eq!(
            Shard::parse("auto", &slurm),
            Ok(Shard { index: 2, count: 3 })
        );
        let k8s = |k: &str| (k == "JOB_COMPLETION_INDEX").then(|| "0".to_string());
        assert_eq!(
            Shard::parse("auto/2", &k8s),
            Ok(Shard { index: 0, count: 2 })
        );
        assert!(Shard::parse("auto", &k8s).is_err());
        assert!(Shard::parse("auto/2", &slurm).is_err());
    }
}
