//! What a clock can run (6.3.1: the moves and times "must be specified in advance"; the last
//! period is for the rest of the game) and why a control is refused, each message saying
//! what to send instead. Apart from the model, since these are the bounds the service sets
//! on what it is sent, not what a control is.

use super::{
    KindName, MAX_BONUS_FROM_MOVE, MAX_BONUS_MS, MAX_PERIOD_MOVES, MAX_PERIOD_MS, MAX_PERIODS,
    Period, period_ranges,
};

/// Why a control is refused. Each message says what is wrong and what to send instead.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TimeControlError {
    /// Neither form was given.
    #[error(
        "the time control gives no time: send `base_ms` (and `increment_ms`), `periods` or a \
         `preset`"
    )]
    NoForm,
    /// More than one form was given.
    #[error(
        "the time control mixes forms ({0}): send only one of `base_ms`/`increment_ms`, \
         `periods` or `preset`"
    )]
    MixedForms(String),
    /// An increment without a base in the one-period form.
    #[error("`increment_ms` needs `base_ms`: send both, or use `periods`")]
    IncrementWithoutBase,
    /// An empty list of periods.
    #[error(
        "the time control has no period: give at least one, the last for the rest of the \
         game, e.g. {{\"time_ms\": 5400000}}"
    )]
    NoPeriods,
    /// Too many periods.
    #[error("the time control has {0} periods; at most {MAX_PERIODS} are supported")]
    TooManyPeriods(usize),
    /// A period that gives neither time nor a bonus.
    #[error(
        "period {period} gives no time and no bonus: no clock can run it; give it a \
         `time_ms` or a `bonus`"
    )]
    NoTime {
        /// The period, 1 for the first.
        period: usize,
    },
    /// A period with more time than a day.
    #[error("period {period} gives {time_ms} ms, more than 24 hours ({MAX_PERIOD_MS} ms)")]
    PeriodTooLong {
        /// The period, 1 for the first.
        period: usize,
        /// Its time.
        time_ms: u64,
    },
    /// A period that requires no moves.
    #[error(
        "period {period} requires 0 moves; give at least 1, or leave `moves` out for the rest \
         of the game"
    )]
    ZeroMoves {
        /// The period, 1 for the first.
        period: usize,
    },
    /// A period that requires too many moves.
    #[error("period {period} requires {moves} moves; at most {MAX_PERIOD_MOVES} are supported")]
    TooManyMoves {
        /// The period, 1 for the first.
        period: usize,
        /// Its moves.
        moves: u32,
    },
    /// A period with a number of moves after the rest-of-game period.
    #[error(
        "period {period} comes after period {rest}, which is already for the rest of the \
         game: remove it, or give period {rest} a number of moves"
    )]
    PeriodAfterRestOfGame {
        /// The period after the rest-of-game one, 1 for the first.
        period: usize,
        /// The rest-of-game period.
        rest: usize,
    },
    /// The last period requires a number of moves, so the control does not say what comes
    /// after.
    #[error(
        "the last period (period {period}) requires {moves} moves and nothing follows it: \
         leave its `moves` out (the rest of the game), or add a period for the rest of the \
         game"
    )]
    LastPeriodHasMoves {
        /// The last period, 1 for the first.
        period: usize,
        /// Its moves.
        moves: u32,
    },
    /// A bonus of zero.
    #[error("period {period} has a bonus of 0 ms: leave `bonus` out instead")]
    ZeroBonus {
        /// The period, 1 for the first.
        period: usize,
    },
    /// A bonus larger than an hour.
    #[error("period {period} has a bonus of {ms} ms, more than an hour ({MAX_BONUS_MS} ms)")]
    BonusTooLarge {
        /// The period, 1 for the first.
        period: usize,
        /// The bonus.
        ms: u64,
    },
    /// A bonus start outside the moves of its period.
    #[error(
        "the bonus of period {period} starts at move {from_move}, but the period covers \
         {covers}: give a move in that range, or put the bonus on the period that contains \
         move {from_move}"
    )]
    BonusStartOutsidePeriod {
        /// The period, 1 for the first.
        period: usize,
        /// The stated first move of the bonus.
        from_move: u32,
        /// The moves the period covers, as text: "moves 1 to 40", "moves 41 to the end".
        covers: String,
    },
    /// A bonus that starts beyond any real game.
    #[error(
        "the bonus of period {period} starts at move {from_move}, beyond any game (at most \
         move {MAX_BONUS_FROM_MOVE})"
    )]
    BonusStartBeyondGame {
        /// The period, 1 for the first.
        period: usize,
        /// The stated first move.
        from_move: u32,
    },
    /// A stated rate of play that the control contradicts.
    #[error(
        "the time control is {derived} by {article} ({minutes} for 60 moves: the time plus 60 \
         times the increment), not {stated}: send kind `{derived}` or leave it out"
    )]
    KindContradicts {
        /// What the client said.
        stated: KindName,
        /// What the control is.
        derived: KindName,
        /// The definition that decides (`A.1`, `B.1`, or `A.1` for standard: neither).
        article: &'static str,
        /// The time for 60 moves, as text.
        minutes: String,
    },
}

/// The checks that make a list of periods runnable on a clock (6.3.1: the moves and times
/// "must be specified in advance"; the last period must say what happens after the others).
pub fn check_periods(periods: &[Period]) -> Result<(), TimeControlError> {
    if periods.is_empty() {
        return Err(TimeControlError::NoPeriods);
    }
    if periods.len() > MAX_PERIODS {
        return Err(TimeControlError::TooManyPeriods(periods.len()));
    }
    let ranges = period_ranges(periods);
    let mut rest: Option<usize> = None;
    for (index, (period, &(first, last))) in periods.iter().zip(&ranges).enumerate() {
        let number = index + 1;
        if let Some(rest) = rest {
            return Err(TimeControlError::PeriodAfterRestOfGame {
                period: number,
                rest,
            });
        }
        if period.time_ms > MAX_PERIOD_MS {
            return Err(TimeControlError::PeriodTooLong {
                period: number,
                time_ms: period.time_ms,
            });
        }
        match period.moves {
            Some(0) => return Err(TimeControlError::ZeroMoves { period: number }),
            Some(moves) if moves > MAX_PERIOD_MOVES => {
                return Err(TimeControlError::TooManyMoves {
                    period: number,
                    moves,
                });
            }
            Some(_) => {}
            None => rest = Some(number),
        }
        match period.bonus {
            None if period.time_ms == 0 => {
                return Err(TimeControlError::NoTime { period: number });
            }
            None => {}
            Some(bonus) => {
                if bonus.ms == 0 {
                    return Err(TimeControlError::ZeroBonus { period: number });
                }
                if bonus.ms > MAX_BONUS_MS {
                    return Err(TimeControlError::BonusTooLarge {
                        period: number,
                        ms: bonus.ms,
                    });
                }
                if let Some(from_move) = bonus.from_move {
                    if from_move > MAX_BONUS_FROM_MOVE {
                        return Err(TimeControlError::BonusStartBeyondGame {
                            period: number,
                            from_move,
                        });
                    }
                    let outside = from_move < first || last.is_some_and(|last| from_move > last);
                    if outside {
                        return Err(TimeControlError::BonusStartOutsidePeriod {
                            period: number,
                            from_move,
                            covers: match last {
                                Some(last) => format!("moves {first} to {last}"),
                                None => format!("moves {first} to the end of the game"),
                            },
                        });
                    }
                }
            }
        }
    }
    if let Some(last) = periods.last()
        && let Some(moves) = last.moves
    {
        return Err(TimeControlError::LastPeriodHasMoves {
            period: periods.len(),
            moves,
        });
    }
    Ok(())
}
