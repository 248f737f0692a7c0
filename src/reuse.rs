//! Incremental runs (`arena run FILE --reuse DIR`): a game is a deterministic function of its
//! rules, its bots and its seed, so a game an earlier run journaled with the same rules, the
//! same bots in the same seats, unchanged, and the same seed need not be played again.
//!
//! "The same" is decided by digests recorded in the journal: the header's `rules` (the game's
//! options and the tournament-wide limits) and each seat's `digest` of what decides its bot's
//! play (see [`bot_digests`]). A game's seed follows from the master seed and the game's
//! identity (see [`crate::schedule`]), so the same seed means the same master seed, bots,
//! seats and round.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::config::{Bot, Tournament};
use crate::errors::Error;
use crate::fnv::Fnv;
use crate::journal::{BotVersions, GameRecord, HEADER_START, JOURNAL_FILE, JournalReader};
use crate::merge::journal_path;
use crate::text::plural;

/// The most files of a bot's folder whose contents are hashed; the names and sizes of any
/// others still count.
const MAX_FILES: usize = 10_000;

/// The most bytes of a bot's folder whose contents are hashed; beyond, files count by name
/// and size only.
const MAX_BYTES: u64 = 64 << 20;

/// The most entries of a bot's folder looked at at all (a `dir` such as a home folder must
/// not make every run walk a disk); the rest do not count.
const MAX_ENTRIES: usize = 100_000;

/// The digest of the tournament-wide settings that decide play: the game's options, the time
/// limits and the reply and output limits.
pub fn rules_digest(tournament: &Tournament) -> String {
    let mut hash = Fnv::default();
    hash.feed(
        format!(
            "{:?}\n{:?}\n{:?}\n{:?}\n{:?}",
            tournament.options,
            tournament.timeouts.request,
            tournament.timeouts.setup,
            tournament.limits,
            tournament.java_host
        )
        .as_bytes(),
    );
    hash.hex()
}

/// The digests of `bots`, in order (see [`bot_digest`]). A folder is walked and read once
/// however many bots share it: a tournament's bots often all run in its own folder, which
/// may hold up to [`MAX_BYTES`] of data.
pub fn bot_digests(bots: &[Bot]) -> Vec<String> {
    let mut folders = HashMap::new();
    bots.iter()
        .map(|bot| {
            let dir = bot.program.dir.as_path();
            let folder = folders.entry(dir).or_insert_with(|| folder_digest(dir));
            bot_digest(bot, folder)
        })
        .collect()
}

/// The digest of what decides a bot's play: its program's path, its arguments, environment
/// and limits, whether it runs in a sandbox (and with a network and a CPU quota), its compiled Java classes,
/// and `folder`, the [`folder_digest`] of its folder. Not hashed: the program itself when it
/// lies outside the folder (an interpreter such as `/usr/bin/python3`), anything the bot
/// reads from elsewhere, and, inside its folder, Python's `__pycache__` folders and arena's
/// results folders. Bots that share a folder share its part of the digest: a change to
/// any file there changes them all.
fn bot_digest(bot: &Bot, folder: &str) -> String {
    let program = &bot.program;
    let mut hash = Fnv::default();
    let sandbox = program
        .sandbox
        .as_ref()
        .map(|spec| (spec.network, spec.max_processes));
    hash.feed(
        format!(
            "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\nfolder {folder}\n",
            program.program,
            program.args,
            program.env,
            program.rlimits,
            sandbox,
            bot.java.as_ref().map(|java| &java.classes),
        )
        .as_bytes(),
    );
    // Fed only when set, so that the digests of bots without a quota stay as they were.
    if let Some(millis) = program.cpu_quota() {
        hash.feed(format!("cpus {millis}\n").as_bytes());
    }
    hash.hex()
}

/// The digest of the files under `dir`: their names and contents, up to [`MAX_FILES`] files
/// and [`MAX_BYTES`] bytes; beyond, names and sizes; nothing past [`MAX_ENTRIES`] entries.
/// Python's compiled caches and the results folders of arena runs are left out (see
/// [`is_compiled_cache`] and [`is_results_folder`]).
fn folder_digest(dir: &Path) -> String {
    let mut hash = Fnv::default();
    let mut budget = Budget {
        entries: MAX_ENTRIES,
        files: MAX_FILES,
        bytes: MAX_BYTES,
    };
    hash_folder(&mut hash, dir, Path::new(""), &mut budget);
    hash.hex()
}

/// What is left of the hashing bounds.
struct Budget {
    entries: usize,
    files: usize,
    bytes: u64,
}

/// Feeds the entries of `folder` (named `relative` from the bot's folder) in name order,
/// recursively, without following links.
fn hash_folder(hash: &mut Fnv, folder: &Path, relative: &Path, budget: &mut Budget) {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        if budget.entries == 0 {
            return;
        }
        budget.entries -= 1;
        let name = relative.join(entry.file_name());
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir()
            && (is_compiled_cache(&entry.file_name()) || is_results_folder(&entry.path()))
        {
            continue;
        }
        let mut line = String::new();
        let _ = write!(line, "{}\0", name.display());
        hash.feed(line.as_bytes());
        if kind.is_dir() {
            hash_folder(hash, &entry.path(), &name, budget);
        } else if kind.is_symlink() {
            if let Ok(target) = std::fs::read_link(entry.path()) {
                hash.feed(target.as_os_str().as_encoded_bytes());
            }
        } else if kind.is_file() {
            hash_file(hash, &entry.path(), budget);
        }
    }
}

/// Whether a folder named `name` is Python's cache of compiled modules (`__pycache__`), which
/// an unboxed bot's interpreter writes into its `dir` on its first import: hashed, it would
/// change the bot's digest during its first run, and a resume or a reuse would find the bot
/// changed. Leaving it out is safe: CPython reads `__pycache__/NAME.TAG.pyc` only for a
/// module whose source `NAME.py` is there (PEP 3147), which is hashed, and recompiles it when
/// it does not match that source's time and size; so what the bot runs follows from its
/// sources. A lone `NAME.pyc` beside them is not left out: Python imports it when there is
/// no source, as the code of a bot shipped without sources.
fn is_compiled_cache(name: &std::ffi::OsStr) -> bool {
    name == "__pycache__"
}

/// Whether `folder` is the results folder of an arena run: it holds an arena journal. Such a
/// folder is `arena`'s output, not part of a bot, and hidden from a boxed bot while its run
/// plays; its journal, replays and private folders change with every game. Hashed, it would
/// change the digest of every bot whose `dir` holds it (a tournament file without `dir`, run
/// from its own folder) with every game: a resume would find the bots changed, a reuse would
/// keep nothing. Told by the journal's first bytes, not only its name, so that a bot's own
/// file of that name still counts.
fn is_results_folder(folder: &Path) -> bool {
    let mut start = [0; HEADER_START.len()];
    std::fs::File::open(folder.join(JOURNAL_FILE))
        .and_then(|mut journal| journal.read_exact(&mut start))
        .is_ok_and(|()| start == HEADER_START)
}

/// Feeds a file's size and, within the budget, its contents.
fn hash_file(hash: &mut Fnv, path: &Path, budget: &mut Budget) {
    let size = std::fs::metadata(path).map_or(0, |m| m.len());
    hash.feed(&size.to_le_bytes());
    if budget.files == 0 || size > budget.bytes {
        return;
    }
    budget.files -= 1;
    budget.bytes -= size;
    let Ok(file) = std::fs::File::open(path) else {
        return;
    };
    let mut contents = Vec::new();
    if file.take(size).read_to_end(&mut contents).is_ok() {
        hash.feed(&contents);
    }
}

/// What identifies a game for reuse: its seed and its bots' names and digests, in seat order.
type Key = (u64, Vec<(String, String)>);

/// The games of earlier runs that may stand for games of this one.
#[derive(Debug, Default)]
pub struct ReusePool {
    games: HashMap<Key, Reusable>,
    /// The digests the gathered games record: which bots changed since.
    versions: BotVersions,
    /// Each source gathered and its master seed: another seed than the run's gives it no game.
    seeds: Vec<(PathBuf, u64)>,
}

/// An earlier game, and the replay file it left, if any.
#[derive(Debug)]
pub struct Reusable {
    /// Its journal record.
    pub record: GameRecord,
    /// Its replay file.
    pub replay: Option<PathBuf>,
}

impl ReusePool {
    /// The games journaled in the results folders (or journals) `sources` under the rules
    /// `rules`, with digests; a journal of other rules, or written before digests were
    /// recorded, gives none (with a warning). A journal of another `game` than this run's, one
    /// that cannot be read, or with a line that is not one of its tournament's games, is an
    /// error.
    pub fn gather(sources: &[PathBuf], game: &str, rules: &str) -> Result<ReusePool, Error> {
        let mut pool = ReusePool::default();
        for source in sources {
            let journal = journal_path(source);
            let reader = JournalReader::open(&journal)?;
            let theirs = &reader.header().game;
            if theirs != game {
                return Err(Error::Usage(format!(
                    "--reuse {}: it is a run of {}, this one of {game}: no game of it can be \
                     reused",
                    source.display(),
                    crate::text::escape_control(theirs)
                )));
            }
            if reader.header().rules.as_deref() != Some(rules) {
                tracing::warn!(
                    "--reuse {}: its game options or limits differ from this run's (or it \
                     predates reuse); none of its games is reused",
                    source.display()
                );
                continue;
            }
            pool.seeds.push((source.clone(), reader.header().seed));
            let folder = journal.parent().unwrap_or(Path::new(".")).to_path_buf();
            let mut undigested = 0_u64;
            for game in reader {
                let game = game?;
                pool.versions.note(&game);
                let Some(key) = key_of(&game) else {
                    undigested += 1;
                    continue;
                };
                let replay = crate::results::replay_path(&folder, game.index);
                pool.games.entry(key).or_insert(Reusable {
                    record: game,
                    replay: replay.is_file().then_some(replay),
                });
            }
            if undigested > 0 {
                tracing::warn!(
                    "--reuse {}: {} no digest of its bots (written before --reuse \
                     existed); none of those is reused",
                    source.display(),
                    plural(undigested, "game records", "games record")
                );
            }
        }
        Ok(pool)
    }

    /// Says, a log line each, why games of the earlier runs are not this run's, whose bots
    /// have `digests` (by name), run in the folders `dirs` (by name) and whose master seed is
    /// `seed`: a bot none of whose gathered games records its digest now changed (its games
    /// are played again; bots that share a folder in one line, since a file changed there
    /// changes them all), an earlier run of another seed has none of this run's games.
    /// Without it a host sees only "reused 0 games" and cannot tell why.
    pub fn explain(
        &self,
        digests: &BTreeMap<String, String>,
        dirs: &BTreeMap<&str, &Path>,
        seed: u64,
    ) {
        let mut by_dir: BTreeMap<Option<&Path>, Vec<String>> = BTreeMap::new();
        for bot in self.versions.changed(digests) {
            let name = format!("`{}`", bot.escape_debug());
            by_dir.entry(dirs.get(bot).copied()).or_default().push(name);
        }
        for (dir, bots) in by_dir {
            match (dir, &bots[..]) {
                (Some(dir), [_, _, ..]) => tracing::info!(
                    "--reuse: bots {} changed since the earlier runs (they share the folder \
                     {}, and a changed file under it changes every bot there; or their \
                     commands, environments, limits or sandbox changed): their games are \
                     played again",
                    bots.join(", "),
                    dir.display()
                ),
                _ => {
                    for bot in bots {
                        tracing::info!(
                            "--reuse: bot {bot} changed since the earlier runs (a file under \
                             its `dir`, or its command, environment, limits or sandbox): its \
                             games are played again"
                        );
                    }
                }
            }
        }
        for (source, theirs) in self.seeds.iter().filter(|(_, theirs)| *theirs != seed) {
            tracing::warn!(
                "--reuse {}: its seed is {theirs}, this run's is {seed}: none of its games is \
                 one of this run's",
                source.display()
            );
        }
    }

    /// The earlier game with `seed` whose bot seats are `seats` (names and digests in seat
    /// order), if there is one; each is handed out once.
    pub fn take(&mut self, seed: u64, seats: Vec<(String, String)>) -> Option<Reusable> {
        self.games.remove(&(seed, seats))
    }

    /// How many games the pool holds.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether the pool holds no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }
}

/// The reuse key of a journaled game: `None` if a bot seat has no digest.
fn key_of(game: &GameRecord) -> Option<Key> {
    let seats = game
        .seats
        .iter()
        .filter(|seat| !seat.built_in)
        .map(|seat| Some((seat.bot.clone(), seat.digest.clone()?)))
        .collect::<Option<Vec<_>>>()?;
    Some((game.seed, seats))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bots::BotProgram;

    /// A bot named `name` running `python3 <script>` in `dir`.
    fn bot(name: &str, script: &str, dir: &Path) -> Bot {
        Bot {
            name: name.to_owned(),
            program: BotProgram {
                program: PathBuf::from("/usr/bin/python3"),
                args: vec![script.to_owned()],
                dir: dir.to_path_buf(),
                env: Default::default(),
                rlimits: Default::default(),
                sandbox: None,
                private_dir: false,
            },
            java: None,
        }
    }

    /// A temporary folder holding the file `name` with `text`.
    fn folder_with(name: &str, text: &str) -> tempfile::TempDir {
        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join(name), text).unwrap();
        folder
    }

    #[test]
    fn bots_sharing_a_folder_differ_by_their_own_settings_and_all_follow_its_files() {
        let shared = folder_with("a.py", "print('a')");
        let other = folder_with("c.py", "print('c')");
        let bots = [
            bot("a", "a.py", shared.path()),
            bot("b", "b.py", shared.path()),
            bot("c", "c.py", other.path()),
        ];
        let before = bot_digests(&bots);
        assert_ne!(before[0], before[1]);
        std::fs::write(shared.path().join("data.txt"), "new").unwrap();
        let after = bot_digests(&bots);
        assert_ne!(after[0], before[0]);
        assert_ne!(after[1], before[1]);
        assert_eq!(after[2], before[2]);
    }

    #[test]
    fn a_results_folder_in_a_bots_folder_is_no_part_of_its_digest() {
        let folder = folder_with("a.py", "print('a')");
        let bots = [bot("a", "a.py", folder.path())];
        let before = bot_digests(&bots);
        let results = folder.path().join("arena-results/run-1");
        std::fs::create_dir_all(results.join("replays")).unwrap();
        let header = r#"{"type":"header","data":{}}"#;
        std::fs::write(results.join(JOURNAL_FILE), format!("{header}\n")).unwrap();
        std::fs::write(results.join("replays/game-0.jsonl"), "{}").unwrap();
        // The empty `arena-results` around it still counts: a folder made by hand.
        let around = bot_digests(&bots);
        std::fs::write(results.join(JOURNAL_FILE), format!("{header}\n{{}}\n")).unwrap();
        assert_eq!(bot_digests(&bots), around);
        assert_ne!(around, before);
        // A bot's own file of that name is hashed like any other.
        let own = folder.path().join("notes");
        std::fs::create_dir(&own).unwrap();
        std::fs::write(own.join(JOURNAL_FILE), "mine").unwrap();
        let with_notes = bot_digests(&bots);
        std::fs::write(own.join(JOURNAL_FILE), "mine, edited").unwrap();
        assert_ne!(bot_digests(&bots), with_notes);
    }

    #[test]
    fn pythons_compiled_cache_is_no_part_of_a_digest_but_a_lone_compiled_module_is() {
        let folder = folder_with("bot.py", "import lib");
        std::fs::write(folder.path().join("lib.py"), "X = 1").unwrap();
        let bots = [bot("a", "bot.py", folder.path())];
        let before = bot_digests(&bots);
        let cache = folder.path().join("__pycache__");
        std::fs::create_dir(&cache).unwrap();
        std::fs::write(cache.join("lib.cpython-311.pyc"), "compiled").unwrap();
        assert_eq!(bot_digests(&bots), before);
        std::fs::write(folder.path().join("other.pyc"), "compiled").unwrap();
        assert_ne!(bot_digests(&bots), before);
    }

    #[test]
    fn a_bots_digest_does_not_depend_on_the_bots_beside_it() {
        let first = folder_with("x.py", "1");
        let second = folder_with("x.py", "2");
        let one = bot("one", "x.py", first.path());
        let two = bot("two", "x.py", second.path());
        let together = bot_digests(&[one.clone(), two.clone(), one.clone()]);
        assert_eq!(together[0], bot_digests(&[one])[0]);
        assert_eq!(together[1], bot_digests(&[two])[0]);
        assert_eq!(together[0], together[2]);
        assert_ne!(together[0], together[1]);
    }
}
