//! A game's Java bots in one JVM (`java_host = "shared"`): the host process speaks each
//! bot's protocol behind a `SEAT <seat>` line, so one batch of queries to the Java bots is
//! one exchange with one process instead of a round trip per bot.

use tokio::sync::Semaphore;

use super::connection::{Connection, Limit, not_sent};
use super::{Called, Seat, record};
use crate::bots::{
    BotProgram, CallEnv, CallStatus, Exit, JavaBuild, JavaHostRuntime, Limits, RunnerFault, Waiting,
};
use crate::config::{JavaHostMode, Tournament};
use arena_games::decimal::push_word_line;
use arena_games::engine::Phase;

/// The JVM shared by a game's Java bots, started on the first request to any of them.
pub(super) struct SharedHost {
    program: BotProgram,
    env: CallEnv,
    /// The tournament's, with room in the stderr kept for every bot it serves.
    limits: Limits,
    /// The JVM's box, with every bot in it, and the JVM's process.
    pub(super) connection: Connection,
    /// The game's number, and the names of the bots served here: what a warning of the
    /// host's end names.
    game: u64,
    members: Vec<String>,
}

impl SharedHost {
    /// The shared host for `seats`, if the tournament shares a JVM among Java bots and the
    /// game has some; marks their seats as served by it. The JVM runs in the first Java
    /// bot's folder with its environment (which holds what a JVM needs under a limit, see
    /// `jvm_environment`), under the widest of their limits.
    pub(super) fn for_game(
        tournament: &Tournament,
        game: u64,
        seats: &mut [Seat<'_>],
    ) -> Option<Self> {
        if tournament.java_host != JavaHostMode::Shared {
            return None;
        }
        let host = tournament.kind().java_host()?;
        let members: Vec<(usize, &JavaBuild)> = seats
            .iter()
            .enumerate()
            .filter_map(|(seat, s)| s.bot.java.as_ref().map(|build| (seat, build)))
            .collect();
        let &(first_seat, _) = members.first()?;
        let first = &seats[first_seat].bot.program;
        let rlimits = members
            .iter()
            .map(|&(seat, _)| seats[seat].bot.program.rlimits)
            .reduce(|a, b| a.widest(b))
            .unwrap_or(first.rlimits);
        let program = BotProgram {
            program: first.program.clone(),
            args: host.shared_args(&members, rlimits.memory_bytes),
            dir: first.dir.clone(),
            env: first.env.clone(),
            rlimits,
            sandbox: shared_sandbox(members.iter().map(|&(seat, _)| &seats[seat].bot.program)),
            private_dir: false,
        };
        let env = seats[first_seat].env;
        for &(seat, _) in &members {
            seats[seat].in_host = true;
        }
        let limits = Limits {
            max_stderr_bytes: tournament
                .limits
                .max_stderr_bytes
                .saturating_mul(members.len()),
            ..tournament.limits
        };
        let members = (members.iter())
            .map(|&(seat, _)| seats[seat].bot.name.clone())
            .collect();
        Some(SharedHost {
            program,
            env,
            limits,
            connection: Connection::default(),
            game,
            members,
        })
    }

    /// At the game's end, gives each bot served here whose requests kept no stderr the
    /// host's first report of its alien's failure, if there is one: what the run's summary
    /// shows of a bot that failed often (the JVM's stderr is all its bots' at once).
    pub(super) fn hand_out_reports(&mut self, seats: &mut [Seat<'_>]) {
        let stderr = self.connection.session_stderr();
        for seat in seats.iter_mut().filter(|seat| seat.in_host) {
            let class = seat
                .bot
                .java
                .as_ref()
                .map(|build| build.class_name.as_str());
            if let Some(report) = class.and_then(|class| first_report(&stderr, class)) {
                if seat.evidence.stderr.is_empty() {
                    seat.evidence.stderr = report;
                }
            }
        }
    }

    /// Makes the JVM's box before the first request needs it (see [`Connection::prepare`]).
    pub(super) async fn prepare(&mut self) {
        self.connection.prepare(&self.program).await;
    }

    /// Sends `batch`, session requests (phase, bytes) to bots in this host, as one
    /// exchange, and records each reply for its seat. One permit covers the exchange: the
    /// host works on one request at a time. `waiting` says whether other queries of the
    /// game's batch run meanwhile.
    pub(super) async fn ask(
        &mut self,
        tournament: &Tournament,
        batch: Vec<(&mut Seat<'_>, Phase, &[u8])>,
        permits: &Semaphore,
        waiting: Waiting,
    ) -> Result<Vec<Called>, RunnerFault> {
        if batch.is_empty() {
            return Ok(Vec::new());
        }
        let _permit = permits
            .acquire()
            .await
            .expect("the permit pool is never closed");
        let setup = batch.iter().any(|&(_, phase, _)| phase == Phase::Setup);
        let phase = if setup { Phase::Setup } else { Phase::Play };
        let limit = Limit::of(phase, tournament.timeouts);
        let limit = self.connection.session_limit(limit);
        let limits = &self.limits;
        let session = match self
            .connection
            .session(&self.program, &self.env, limits)
            .await
        {
            Ok(session) => session,
            Err(status) => {
                return batch
                    .into_iter()
                    .map(|(seat, _, _)| record(seat, not_sent(status.clone()), true))
                    .collect();
            }
        };
        let mut request = Vec::with_capacity(batch_len(&batch));
        for (seat, _, bytes) in &batch {
            push_word_line(&mut request, "SEAT", seat.env.seat);
            request.extend_from_slice(bytes);
        }
        let results = session
            .exchange(&request, batch.len(), limit, limits, waiting)
            .await;
        let replied = |status: &CallStatus| {
            *status
                == CallStatus::Replied {
                    exit: Exit::Running,
                }
        };
        // The first reply that is not one ended the host in this exchange, unless the host
        // had ended before (then all are SessionGone, and the warning was given).
        let failed = results.iter().position(|result| !replied(&result.status));
        if let Some(failed) = failed.filter(|&i| results[i].status != CallStatus::SessionGone) {
            let culprit = &batch[failed].0.bot.name;
            let others: Vec<&str> = (self.members.iter())
                .filter(|member| *member != culprit)
                .map(String::as_str)
                .collect();
            let others = if others.is_empty() {
                String::new()
            } else {
                format!(
                    "; the game's other Java bots ({}) get the default answers from now on, \
                     so their results in this game are not their own",
                    others.join(", ")
                )
            };
            tracing::warn!(
                bot = %culprit,
                "game {}: the shared Java host ended while serving this bot{others} \
                 (`java_host = \"separate\"` isolates them)",
                self.game
            );
        }
        batch
            .into_iter()
            .zip(results)
            .map(|((seat, _, _), result)| record(seat, result, true))
            .collect()
    }
}

/// The Java host's first report in `stderr` of a failure of `class`'s code: its line
/// (`<class>, instance <id>, <call>: <exception>`) and the stack lines under it
/// (`planet.AlienWarHost.Species.report` writes them).
fn first_report(stderr: &[u8], class: &str) -> Option<Vec<u8>> {
    let text = String::from_utf8_lossy(stderr);
    let start = format!("{class}, instance ");
    let mut lines = text.lines().skip_while(|line| !line.starts_with(&start));
    let mut report = lines.next()?.to_owned();
    for line in lines.take_while(|line| line.starts_with("    at ")) {
        report.push('\n');
        report.push_str(line);
    }
    report.push('\n');
    Some(report.into_bytes())
}

/// The bytes of `batch` as one exchange, `SEAT` lines included: the request is reserved
/// once (a round's batch is hundreds of kilobytes).
fn batch_len(batch: &[(&mut Seat<'_>, Phase, &[u8])]) -> usize {
    /// Room for one `SEAT <seat>` line.
    const SEAT_LINE: usize = 16;
    batch
        .iter()
        .map(|(_, _, bytes)| SEAT_LINE + bytes.len())
        .sum()
}

/// One box for the JVM that hosts `members`: the first one's, which shows every member's
/// folders; unsandboxed if any member is. (Its memory is the host's widest limit.) Its CPU
/// quota is the sum of the members', as their separate boxes would have had; none if any
/// member has none.
fn shared_sandbox<'a>(
    mut members: impl Iterator<Item = &'a BotProgram>,
) -> Option<std::sync::Arc<crate::sandbox::BoxSpec>> {
    let first = members.next()?;
    let mut spec = (**first.sandbox.as_ref()?).clone();
    for member in members {
        let other = member.sandbox.as_ref()?;
        spec.readable.extend(other.readable.iter().cloned());
        spec.network |= other.network;
        spec.max_processes = spec.max_processes.max(other.max_processes);
        spec.cpu_millis = spec
            .cpu_millis
            .zip(other.cpu_millis)
            .map(|(a, b)| a.saturating_add(b));
    }
    Some(std::sync::Arc::new(spec))
}

#[cfg(test)]
mod tests {
    use super::{first_report, shared_sandbox};
    use crate::bots::BotProgram;
    use crate::sandbox::BoxSpec;
    use std::sync::Arc;

    /// A member with a box of `cpu_millis` (`None`: no quota).
    fn member(cpu_millis: Option<u32>) -> BotProgram {
        BotProgram {
            program: "/usr/bin/java".into(),
            args: Vec::new(),
            dir: "/".into(),
            env: Default::default(),
            rlimits: Default::default(),
            sandbox: Some(Arc::new(BoxSpec {
                cpu_millis,
                ..BoxSpec::default()
            })),
            private_dir: false,
        }
    }

    /// The shared JVM's box may use what its members' boxes would have used together.
    #[test]
    fn the_shared_hosts_cpu_quota_is_its_members_together() {
        let quota = |members: &[BotProgram]| shared_sandbox(members.iter())?.cpu_millis;
        assert_eq!(quota(&[member(Some(500)), member(Some(1500))]), Some(2000));
        assert_eq!(quota(&[member(Some(500)), member(None)]), None);
        assert_eq!(quota(&[member(None), member(Some(500))]), None);
    }

    #[test]
    fn an_aliens_first_report_is_its_line_and_the_stack_under_it() {
        let stderr =
            b"alien.AB, instance 0, move: java.lang.Error\n    at alien.AB.move(AB.java:3)\n\
                       alien.A, instance 2, move: returned null\n\
                       printed by an alien\n\
                       alien.A, instance 7, wantToFight: java.lang.Error\n    at x\n";
        let report = first_report(stderr, "alien.A").unwrap();
        assert_eq!(report, b"alien.A, instance 2, move: returned null\n");
        let report = first_report(stderr, "alien.AB").unwrap();
        assert_eq!(
            String::from_utf8(report).unwrap(),
            "alien.AB, instance 0, move: java.lang.Error\n    at alien.AB.move(AB.java:3)\n"
        );
        assert_eq!(first_report(stderr, "alien.B"), None);
    }
}
