//! The shard entrypoint `deploy/shard.sh` under simulated schedulers: the arguments it gives
//! `arena` (a fake that records them), the CPUs it finds, the inputs it refuses; and the
//! Kubernetes Job, read line by line, checked against it.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::repo;

/// A temporary folder with a fake `arena` that writes its arguments, one a line, to `args`
/// beside it and exits with `$FAKE_STATUS` (0 unless set).
struct Fake {
    dir: tempfile::TempDir,
}

impl Fake {
    fn new() -> Fake {
        let dir = tempfile::tempdir().unwrap();
        let arena = dir.path().join("arena");
        std::fs::write(
            &arena,
            "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args\"\nexit \"${FAKE_STATUS:-0}\"\n",
        )
        .unwrap();
        std::fs::set_permissions(&arena, std::fs::Permissions::from_mode(0o755)).unwrap();
        Fake { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A command for `program` with the fake as ARENA, the results in the temporary folder
    /// and the CPU settings of the machine running the tests hidden (an empty cgroup root,
    /// no Slurm variables), so each test sets only what it simulates.
    fn command(&self, program: &str) -> Command {
        let cgroup = self.path("no-cgroup");
        std::fs::create_dir_all(&cgroup).unwrap();
        let mut command = Command::new(program);
        command
            .current_dir(repo())
            .env("ARENA", self.path("arena"))
            .env("RESULTS", self.path("results"))
            .env("ARENA_CGROUP_ROOT", &cgroup)
            .env_remove("SLURM_CPUS_PER_TASK")
            .env_remove("ARENA_ARGS")
            .env_remove("TOURNAMENT");
        command
    }

    fn shard(&self, args: &[&str], env: &[(&str, &str)]) -> Output {
        self.command("sh")
            .arg(repo().join("deploy/shard.sh"))
            .args(args)
            .envs(env.iter().copied())
            .output()
            .unwrap()
    }

    /// What the fake arena was called with; fails if it was not called.
    fn args(&self) -> Vec<String> {
        let text = std::fs::read_to_string(self.path("args")).expect("the fake arena ran");
        text.lines().map(str::to_owned).collect()
    }

    fn results(&self, shard: u32) -> String {
        format!("{}/shard-{shard}", self.path("results").display())
    }
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn a_new_shard_runs_into_its_own_folder_with_the_cpus_slurm_granted() {
    let fake = Fake::new();
    let output = fake.shard(
        &["3", "4"],
        &[
            ("SLURM_CPUS_PER_TASK", "3"),
            ("ARENA_ARGS", "--games 2  --seed 7"),
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let dir = fake.results(3);
    assert_eq!(
        fake.args(),
        words(&[
            "run",
            "tournaments/petri.toml",
            "--shard",
            "3/4",
            "--out",
            &dir,
            "--jobs",
            "3",
            "--format",
            "json",
            "--games",
            "2",
            "--seed",
            "7",
        ])
    );
    assert!(fake.path("results").is_dir(), "the results folder is made");
}

#[test]
fn a_shard_whose_folder_has_a_journal_is_resumed() {
    let fake = Fake::new();
    let dir = fake.results(2);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(Path::new(&dir).join("journal.jsonl"), "{}\n").unwrap();
    let output = fake.shard(&["2", "2"], &[("TOURNAMENT", "t/small.toml")]);
    assert!(output.status.success(), "{output:?}");
    assert_eq!(
        fake.args(),
        words(&[
            "run",
            "t/small.toml",
            "--shard",
            "2/2",
            "--resume",
            &dir,
            "--format",
            "json",
        ]),
        "no quota and no Slurm: no --jobs, arena decides"
    );
}

/// A format in ARENA_ARGS replaces the JSON default: arena takes one `--format`.
#[test]
fn a_format_in_arena_args_replaces_the_json_default() {
    for format in ["--format table", "--format=csv"] {
        let fake = Fake::new();
        let output = fake.shard(&["1", "1"], &[("ARENA_ARGS", format)]);
        assert!(output.status.success(), "{output:?}");
        let args = fake.args();
        let formats = args
            .iter()
            .filter(|arg| arg.starts_with("--format"))
            .count();
        assert_eq!(formats, 1, "{format}: {args:?}");
        assert!(!args.contains(&"json".to_owned()), "{format}: {args:?}");
    }
}

#[test]
fn the_exit_status_is_arenas() {
    let fake = Fake::new();
    let output = fake.shard(&["1", "1"], &[("FAKE_STATUS", "130")]);
    assert_eq!(output.status.code(), Some(130));
}

/// The `--jobs` that shard.sh passes for a fake cgroup tree of `files` (path, text).
fn jobs_for_cgroup(files: &[(&str, &str)]) -> Option<String> {
    let fake = Fake::new();
    let root = fake.path("cgroup");
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let output = fake.shard(
        &["1", "2"],
        &[("ARENA_CGROUP_ROOT", root.to_str().unwrap())],
    );
    assert!(output.status.success(), "{output:?}");
    let args = fake.args();
    let at = args.iter().position(|a| a == "--jobs")?;
    Some(args[at + 1].clone())
}

#[test]
fn without_slurm_the_jobs_are_the_cgroup_cpu_quota_rounded_up() {
    let jobs = |files: &[(&str, &str)]| jobs_for_cgroup(files);
    // cgroup v2
    assert_eq!(
        jobs(&[("cpu.max", "400000 100000\n")]).as_deref(),
        Some("4")
    );
    assert_eq!(
        jobs(&[("cpu.max", "150000 100000\n")]).as_deref(),
        Some("2")
    );
    assert_eq!(jobs(&[("cpu.max", "max 100000\n")]), None);
    // cgroup v1
    let v1 = |quota| {
        jobs(&[
            ("cpu/cpu.cfs_quota_us", quota),
            ("cpu/cpu.cfs_period_us", "100000\n"),
        ])
    };
    assert_eq!(
        v1("50000\n").as_deref(),
        Some("1"),
        "half a CPU is at least 1"
    );
    assert_eq!(v1("300000\n").as_deref(), Some("3"));
    assert_eq!(v1("-1\n"), None, "no quota");
    assert_eq!(jobs(&[]), None, "no cgroup files");
}

#[test]
fn slurms_cpus_win_over_the_cgroup_quota() {
    let fake = Fake::new();
    let root = fake.path("cgroup");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::write(root.join("cpu.max"), "800000 100000\n").unwrap();
    let output = fake.shard(
        &["1", "2"],
        &[
            ("ARENA_CGROUP_ROOT", root.to_str().unwrap()),
            ("SLURM_CPUS_PER_TASK", "2"),
        ],
    );
    assert!(output.status.success(), "{output:?}");
    let args = fake.args();
    assert!(args.windows(2).any(|w| w == ["--jobs", "2"]), "{args:?}");
}

/// Arguments, environment, and what stderr must say.
type Refused<'a> = (&'a [&'a str], &'a [(&'a str, &'a str)], &'a str);

#[test]
fn bad_indexes_counts_and_cpus_exit_2_before_arena_starts() {
    let cases: &[Refused] = &[
        (
            &["0", "4"],
            &[],
            "shard index must be a whole number from 1, not '0'",
        ),
        (&["5", "4"], &[], "shard 5 is not one of 4"),
        (&["x", "4"], &[], "not 'x'"),
        (
            &["1", "0"],
            &[],
            "shard count must be a whole number from 1, not '0'",
        ),
        (&["1", "-3"], &[], "not '-3'"),
        (&["08", "9"], &[], "not '08'"),
        (&["1"], &[], "usage: shard.sh INDEX COUNT"),
        (&["1", "2", "3"], &[], "usage: shard.sh INDEX COUNT"),
        (
            &["1", "2"],
            &[("SLURM_CPUS_PER_TASK", "two")],
            "SLURM_CPUS_PER_TASK must be",
        ),
    ];
    for (args, env, message) in cases {
        let fake = Fake::new();
        let output = fake.shard(args, env);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!fake.path("args").exists(), "{args:?}: arena was started");
        assert!(
            !fake.path("results").exists(),
            "{args:?}: results were made"
        );
    }
}

#[test]
fn the_slurm_script_gives_the_entrypoint_its_task_and_shards() {
    let fake = Fake::new();
    let script = repo().join("deploy/slurm-array.sh");
    let submit = |env: &[(&str, &str)]| {
        fake.command("bash")
            .arg(&script)
            .env_remove("SLURM_SUBMIT_DIR")
            .env_remove("SHARDS")
            .envs(env.iter().copied())
            .output()
            .unwrap()
    };
    // As `SHARDS=4 sbatch --array=3 deploy/slurm-array.sh` starts it: an array of one task.
    let output = submit(&[
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_COUNT", "1"),
        ("SHARDS", "4"),
        ("SLURM_CPUS_PER_TASK", "1"),
    ]);
    assert!(output.status.success(), "{output:?}");
    let args = fake.args();
    let dir = fake.results(3);
    assert!(
        args.windows(6)
            .any(|w| w == ["--shard", "3/4", "--out", &dir, "--jobs", "1"]),
        "{args:?}"
    );
    let unset = submit(&[]);
    assert_eq!(unset.status.code(), Some(2), "{unset:?}");
    assert!(String::from_utf8_lossy(&unset.stderr).contains("SLURM_ARRAY_TASK_ID is not set"));
}

/// The `- name:` / `value:` pairs of a YAML file's `env:` lists, in order.
fn yaml_env(text: &str) -> Vec<(String, String)> {
    let unquote = |v: &str| v.trim().trim_matches('"').to_owned();
    let mut pairs = Vec::new();
    let mut lines = text.lines().map(str::trim);
    while let Some(line) = lines.next() {
        if let Some(name) = line.strip_prefix("- name:") {
            let next = lines.next().unwrap_or_default();
            if let Some(value) = next.strip_prefix("value:") {
                pairs.push((unquote(name), unquote(value)));
            }
        }
    }
    pairs
}

/// The value of the first `key: value` line (trimmed, unquoted).
fn yaml_field<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines()
        .find_map(|line| line.trim().strip_prefix(&format!("{key}:")))
        .unwrap_or_else(|| panic!("no `{key}:` line"))
        .split(" #")
        .next()
        .unwrap()
        .trim()
        .trim_matches('"')
}

#[test]
fn the_kubernetes_job_runs_the_entrypoint_with_the_variables_it_reads() {
    let yaml = std::fs::read_to_string(repo().join("deploy/kubernetes-job.yaml")).unwrap();
    let entrypoint = std::fs::read_to_string(repo().join("deploy/shard.sh")).unwrap();
    let lines: Vec<&str> = yaml.lines().map(str::trim).collect();
    assert!(lines.contains(&r#"command: ["/bin/sh", "-c"]"#), "{yaml}");
    let at = lines
        .iter()
        .position(|l| *l == "args:")
        .expect("an args: list");
    let script = lines[at + 1].strip_prefix("- ").expect("one argument");
    assert!(script.contains("deploy/shard.sh"), "{script}");
    assert_eq!(
        yaml_field(&yaml, "workingDir"),
        "/arena",
        "where the image has deploy/"
    );

    let env = yaml_env(&yaml);
    let names: Vec<&str> = env.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["SHARDS", "TOURNAMENT", "RESULTS"]);
    for name in &names {
        let read = entrypoint.contains(&format!("${{{name}"));
        assert!(
            read || script.contains(&format!("${name}")),
            "{name} is set but neither the command nor shard.sh reads it"
        );
    }
    let shards = &env[0].1;
    assert_eq!(
        yaml_field(&yaml, "completions"),
        shards,
        "one pod per shard"
    );
    assert_eq!(yaml_field(&yaml, "completionMode"), "Indexed");
    let (request, limit) = (yaml_field(&yaml, "requests"), yaml_field(&yaml, "limits"));
    assert!(request.is_empty() && limit.is_empty(), "both are blocks");
    let cpus: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("cpu:"))
        .map(|v| v.trim().trim_matches('"'))
        .collect();
    assert_eq!(
        cpus,
        ["4", "4"],
        "a CPU request and an equal limit (the quota)"
    );
    let merge = std::fs::read_to_string(repo().join("deploy/kubernetes-merge.yaml")).unwrap();
    assert_eq!(yaml_field(&yaml, "image"), yaml_field(&merge, "image"));

    // The pod with completion index 2 of 8, its command run as the pod's shell would.
    let fake = Fake::new();
    let mut pod = fake.command("/bin/sh");
    for (name, value) in &env {
        pod.env(name, value);
    }
    let output = pod
        .env("RESULTS", fake.path("results"))
        .env("JOB_COMPLETION_INDEX", "2")
        .args(["-c", script])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    let args = fake.args();
    let dir = fake.results(3);
    assert_eq!(
        args,
        words(&[
            "run",
            "tournaments/petri.toml",
            "--shard",
            "3/8",
            "--out",
            &dir,
            "--format",
            "json"
        ])
    );
}
