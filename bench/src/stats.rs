//! What the real-process drivers (`stdio_bench`, `http_bench`) share: the median and range of
//! repeated runs, Markdown cells, a process's resident memory, and starting a server pinned to
//! a core.

use std::process::Command;

/// The median and the range of repeated measurements.
#[derive(Debug, Clone, Copy)]
pub struct Spread {
    /// The median (the mean of the two middle values for an even count).
    pub median: f64,
    /// The lowest value.
    pub min: f64,
    /// The highest value.
    pub max: f64,
}

impl Spread {
    /// The spread of `values` (at least one).
    pub fn of(values: &[f64]) -> Spread {
        assert!(!values.is_empty(), "no measurement");
        let mut v = values.to_vec();
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Spread {
            median,
            min: v[0],
            max: v[n - 1],
        }
    }

    /// `median [min–max]`, each rounded to a whole number.
    pub fn cell(&self) -> String {
        format!("{:.0} [{:.0}–{:.0}]", self.median, self.min, self.max)
    }

    /// `median [min–max]` with one decimal.
    pub fn cell1(&self) -> String {
        format!("{:.1} [{:.1}–{:.1}]", self.median, self.min, self.max)
    }
}

/// The ratio of two series' medians, and the range of the run-by-run ratios (run `i` of `a`
/// against run `i` of `b`: the servers ran one after the other in each repetition).
pub fn ratio(a: &[f64], b: &[f64]) -> String {
    let per_run: Vec<f64> = a.iter().zip(b).map(|(x, y)| x / y).collect();
    let s = Spread::of(&per_run);
    format!(
        "{:.2} [{:.2}–{:.2}]",
        Spread::of(a).median / Spread::of(b).median,
        s.min,
        s.max
    )
}

/// A process's resident memory now and its peak (`VmRSS`, `VmHWM` in `/proc/PID/status`), in
/// KiB; `(0, 0)` when it cannot be read.
pub fn memory(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// The command that starts `program` (with `args`), under `taskset -c CPU` when `cpu` is set.
/// With `taskset` the child's pid is the server's: `taskset` execs it.
pub fn pinned(cpu: Option<&str>, program: &str, args: &[&str]) -> Command {
    match cpu {
        Some(cpu) => {
            let mut c = Command::new("taskset");
            c.args(["-c", cpu, program]).args(args);
            c
        }
        None => {
            let mut c = Command::new(program);
            c.args(args);
            c
        }
    }
}

/// The path of the binary `name` next to the running one (all are built into one directory).
pub fn sibling(name: &str) -> String {
    std::env::current_exe()
        .expect("the running binary's path")
        .with_file_name(name)
        .to_string_lossy()
        .into_owned()
}
