//! What a journal may hold, derived from its own header: a journal is read as evidence, never
//! trusted blindly. Its header must describe a schedule this `arena` can make (a known pairing
//! version and game, a game count that is that schedule's, bots named as a tournament file
//! may name them), and every game must be one of the
//! schedule's: its index in range (and in the journal's shard), its seed the derived one, its
//! seats that fixture's bots in order, then only the game's own built-in players; and its
//! outcome one the game can give (no game won by both sides, no request failed twice).

use std::collections::BTreeSet;

use crate::config::bot_name_problem;
use crate::schedule::{Schedule, fixture_count};
use crate::shard::Shard;
use arena_games::{GameKind, Pairing, Scoring};

use super::{FORMAT_VERSION, GameRecord, Header};

/// The schedule a journal's header describes, to check its games against.
#[derive(Debug, Clone)]
pub(super) struct Expected {
    pairing: Pairing,
    bots: Vec<String>,
    games: u32,
    seed: u64,
    total: u64,
    shard: Option<Shard>,
    /// The index of the gauntlet's bot, whose games alone the journal holds.
    gauntlet: Option<usize>,
    /// Whether games come in pairs with one seed (`--sprt`).
    paired: bool,
    built_in_names: Vec<&'static str>,
    scoring: Scoring,
}

impl Expected {
    /// The schedule of `header`, or why the header describes none.
    pub(super) fn of(header: &Header) -> Result<Expected, String> {
        if header.format_version != FORMAT_VERSION {
            return Err(format!(
                "format version {} is not one this arena reads (it reads {FORMAT_VERSION})",
                header.format_version
            ));
        }
        let kind = GameKind::from_name(&header.game).ok_or_else(|| {
            format!(
                "the journal is for an unknown game `{}`",
                header.game.escape_debug()
            )
        })?;
        if let Some(why) = header.bots.iter().find_map(|name| bot_name_problem(name)) {
            return Err(why);
        }
        let mut names = BTreeSet::new();
        if let Some(twice) = header.bots.iter().find(|name| !names.insert(name.as_str())) {
            return Err(format!("bot `{}` is listed twice", twice.escape_debug()));
        }
        let pairing = header.pairing()?;
        if let Some(shard) = header.shard
            && !(1..=shard.count).contains(&shard.index)
        {
            return Err(format!("shard {shard} does not exist"));
        }
        let gauntlet = match &header.gauntlet {
            None => None,
            Some(bot) => Some(header.bots.iter().position(|name| name == bot).ok_or_else(
                || {
                    format!(
                        "the gauntlet's bot `{}` is not one of the bots",
                        bot.escape_debug()
                    )
                },
            )?),
        };
        Ok(Expected {
            pairing,
            gauntlet,
            paired: header.sprt.is_some(),
            bots: header.bots.clone(),
            games: header.games,
            seed: header.seed,
            total: header.total_games,
            shard: header.shard,
            built_in_names: kind.built_in_names(),
            scoring: kind.scoring(),
        })
    }

    /// Whether `game` is one of the schedule's games, or why not.
    pub(super) fn check(&self, game: &GameRecord) -> Result<(), String> {
        let index = game.index;
        let fixture = Schedule::new(self.pairing, &self.bots, self.games, self.seed)
            .paired(self.paired)
            .fixture(index)
            .ok_or_else(|| {
                format!(
                    "game {index} does not exist: the tournament has {}",
                    crate::text::plural(self.total, "game", "games")
                )
            })?;
        if let Some(shard) = self.shard
            && !shard.contains(index)
        {
            return Err(format!("game {index} is not in shard {shard}"));
        }
        if let Some(bot) = self.gauntlet
            && !fixture.seats.contains(&bot)
        {
            return Err(format!(
                "game {index} is not a game of the gauntlet's bot `{}`",
                self.bots[bot].escape_debug()
            ));
        }
        if game.seed != fixture.seed {
            return Err(format!(
                "game {index} has seed {}, but the tournament's game {index} has seed {}",
                game.seed, fixture.seed
            ));
        }
        let seated: Vec<&str> = game
            .seats
            .iter()
            .take_while(|seat| !seat.built_in)
            .map(|seat| seat.bot.as_str())
            .collect();
        let scheduled: Vec<&str> = fixture
            .seats
            .iter()
            .map(|&bot| self.bots[bot].as_str())
            .collect();
        if seated != scheduled {
            return Err(format!(
                "game {index} seats {}, but the tournament's game {index} seats {}",
                names(&seated),
                names(&scheduled)
            ));
        }
        if let Some(seat) = game.seats.iter().find(|seat| {
            u64::from(seat.timeouts) + u64::from(seat.crashes) > u64::from(seat.requests)
        }) {
            return Err(format!(
                "game {index} gives `{}` more timeouts and crashes than requests (a request \
                 fails at most once)",
                seat.bot.escape_debug()
            ));
        }
        let outcome: Vec<_> = (game.seats.iter())
            .map(|seat| (seat.score, seat.result))
            .collect();
        if let Some(why) = self.scoring.impossible(&outcome[..seated.len()]) {
            return Err(format!("game {index} cannot have ended so: {why}"));
        }
        let mut seen = BTreeSet::new();
        for seat in &game.seats[seated.len()..] {
            let known = seat.built_in && self.built_in_names.contains(&seat.bot.as_str());
            if !known || !seen.insert(seat.bot.as_str()) {
                return Err(format!(
                    "game {index} has a player `{}` that is neither its bot nor one of the \
                     game's built-in players",
                    seat.bot.escape_debug()
                ));
            }
        }
        Ok(())
    }
}

impl Header {
    /// The pairing of the schedule the header describes: the game's, the one with its number
    /// of games where the game's options allow more than one (Slime's seat rotation).
    pub fn pairing(&self) -> Result<Pairing, String> {
        let kind = GameKind::from_name(&self.game).ok_or_else(|| {
            format!(
                "the journal is for an unknown game `{}`",
                self.game.escape_debug()
            )
        })?;
        let bots = self.bots.len();
        kind.pairings()
            .iter()
            .copied()
            .find(|&pairing| fixture_count(pairing, bots, self.games) == self.total_games)
            .ok_or_else(|| {
                format!(
                    "{} games is not a {} tournament of {bots} bots and {} games each",
                    self.total_games,
                    kind.name(),
                    self.games
                )
            })
    }
}

/// Bot names for a message: `a, b`, or `nobody`.
fn names(names: &[&str]) -> String {
    if names.is_empty() {
        return "nobody".into();
    }
    names
        .iter()
        .map(|name| format!("`{}`", name.escape_debug()))
        .collect::<Vec<_>>()
        .join(", ")
}
