//! Article 6 as the engine keeps it: the clock times last read, with the extra time the
//! rulings give (7.5.5, 9.5.3, Guidelines III) and the arbiter's adjustments, and the
//! increment in force (the time control's, or five seconds granted under Guidelines III.4).
//!
//! The engine does not run the clocks: it keeps what was read off them (a `clock_press`, or
//! the `clock` reading recorded with any event) and what the rulings added since.
//!
//! It also keeps each player's place in the time control ([`PeriodTracker`], issue 18): the
//! moves completed, the period of the Laws in which the next move is played, and the period
//! whose time the clock counts.
//!
//! A move made on the board is completed by the press (6.2.1, issue 36). The record shows
//! the press as a `clock_press` of the mover, or as the move recorded with the clock's
//! reading (the reading is taken at the press). A move is also completed when it ends the
//! game (6.2.1.1), when the player makes the next move without having pressed (6.2.1.2), and,
//! as the record shows it, when the opponent's press is recorded after it: the opponent's
//! clock can only be stopped once it runs, that is once the player pressed (6.2.2 lets the
//! opponent move before the press, not press). Until then the move is on the board but not
//! completed, and the time until the press is the player's (6.2.2): a flag then falls in the
//! period before.
//! A flag (6.4, 6.9), both flags (III.3.1), the quickplay finish (III.1) and the scoresheet
//! duty (8.4) are judged on it.
//!
//! A reading that does not fit the control is kept as read (the clock is the fact) and noted
//! as a [`ReadingDiscrepancy`] for the arbiter: more than the display can show (the last
//! reading, with the increments, period time and penalties added since), or, after a press,
//! less than the time the press added, which means that the display would have reached 0:00
//! during the move (or that the clock did not add the next period at the control).

use crate::rules::side::{BySide, Side};
use crate::rules::time_control::TimeControl;
use crate::rules::time_control::tracker::{
    BothFlagsOutcome, ClockBehaviour, FlagOutcome, PeriodTimeAdded, PeriodTracker,
};

use super::event::{
    ArbiterRuling, ClockReading, Event, MoveCount, RecordedEvent, ServiceEvent, StartMoves,
};
use super::parts::{CorruptLog, Fold, FoldContext};
use super::quickplay::GRANTED_INCREMENT_MS;
use super::reads::{ClocksView, moves_on_board};
use super::view::{
    ClockCount, ClockTimes, DiscrepancyKind, PeriodsView, PlayerPeriod, ReadingDiscrepancy,
};
use crate::rules::laws::LawsEdition;

/// The clocks as the engine knows them.
#[derive(Clone, Debug)]
pub(super) struct Clocks {
    times: BySide<Option<u64>>,
    /// Whether a reading of each player's clock has been recorded (before that, the time is
    /// the base time of the time control, an assumption rather than a reading).
    read: BySide<bool>,
    increment_ms: u64,
    /// Each player's moves and period under the time control.
    periods: PeriodTracker,
    /// The player who had the move in the start position, or in the position the arbiter
    /// reconstructed last (whose plies since are the odd ones).
    start_turn: Side,
    /// The ply from which `on_board` counts: 0, or the ply of the position the arbiter
    /// reconstructed last (7.5.1, 7.6, 8.5.3).
    record_start_ply: usize,
    /// The moves each player had completed before the record starts (a game created from a
    /// position: 0 for the standard start), or before the position the arbiter reconstructed
    /// last (its move number).
    before_record: BySide<u32>,
    /// The moves each player has made on the board in this record (plies).
    on_board: BySide<u32>,
    /// Whether each player's latest move on the board awaits its press (6.2.1): made, not
    /// completed.
    awaiting_press: BySide<bool>,
    /// Whether the record has shown a press (a `clock_press`, or a move recorded with the
    /// clock's reading). Until it does, it is a record of moves only, which cannot show a
    /// press: a move is then taken as completed once the opponent replies.
    records_presses: bool,
    /// Moves each player completed that the record does not hold, as the arbiter counted
    /// them (8.5, 8.6, 6.10.2).
    unrecorded_moves: BySide<u32>,
    /// The most each display can show: the last reading (or the start), with every
    /// increment, period time, penalty and adjustment added since.
    ceiling: BySide<u64>,
    /// What the latest press of each player added to the display (the increment and the
    /// time of a next period), until the next reading of that display: after the press, a
    /// display that did not reach 0:00 shows at least that much.
    last_credit: BySide<Option<Credit>>,
    /// The increment the arbiter granted under Guidelines III.4, if any.
    granted_increment_ms: u64,
    /// The `seq` of the event being folded.
    seq: u64,
    /// Readings that did not fit, oldest first.
    discrepancies: Vec<ReadingDiscrepancy>,
}

/// What one press added to a display.
#[derive(Clone, Copy, Debug, Default)]
struct Credit {
    /// Everything the press added.
    total_ms: u64,
    /// The next period's time among it.
    period_ms: u64,
}

/// How far a reading may pass a bound before it is a discrepancy: displays and people read
/// whole seconds, and a reading is taken a moment after the press.
const READING_TOLERANCE_MS: u64 = 1_000;

impl Clocks {
    /// Both clocks at the first period's time (with the first increment too on clocks that
    /// credit it before the move), and the increment of the last period: the one-period
    /// control's own increment, and the one the quickplay finish of the last period is judged
    /// with (III.2.2). A game that starts from a position counts the moves completed before
    /// it (`before`: the periods reached are credited), and its clocks show `start_clocks`
    /// where read.
    pub(super) fn new(
        control: &TimeControl,
        behaviour: ClockBehaviour,
        start_turn: Side,
        before: StartMoves,
        start_clocks: Option<&ClockReading>,
    ) -> Clocks {
        let mut periods = PeriodTracker::new(control.clone(), behaviour);
        let before_record = BySide {
            white: before.white,
            black: before.black,
        };
        let mut read = BySide::default();
        for side in [Side::White, Side::Black] {
            let moves = *before_record.get(side);
            if moves > 0 {
                periods.set_moves_completed(side, moves);
            }
            let shown = start_clocks.and_then(|c| match side {
                Side::White => c.white_ms,
                Side::Black => c.black_ms,
            });
            if let Some(ms) = shown {
                periods.record_reading(side, ms);
                *read.get_mut(side) = true;
            }
        }
        let start = BySide::new(|side| Some(periods.display_ms(side)));
        let ceiling = BySide::new(|side| periods.display_ms(side));
        Clocks {
            times: start,
            read,
            increment_ms: control
                .periods
                .last()
                .and_then(|p| p.bonus)
                .map_or(0, |b| b.ms),
            periods,
            start_turn,
            record_start_ply: 0,
            before_record,
            on_board: BySide::default(),
            awaiting_press: BySide::default(),
            records_presses: false,
            unrecorded_moves: BySide::default(),
            ceiling,
            last_credit: BySide::default(),
            granted_increment_ms: 0,
            seq: 0,
            discrepancies: Vec::new(),
        }
    }

    /// The moves `side` made on the board when it stands at `ply`.
    fn board_moves(&self, side: Side, ply: usize) -> u32 {
        moves_on_board(
            self.start_turn,
            side,
            ply.saturating_sub(self.record_start_ply),
        )
    }

    /// The moves `side` has completed (6.2.1): those before the record, those made on the
    /// board and pressed, and those the arbiter counted that the record lacks.
    fn completed(&self, side: Side) -> u32 {
        self.before_record
            .get(side)
            .saturating_add(*self.on_board.get(side))
            .saturating_add(*self.unrecorded_moves.get(side))
            .saturating_sub(u32::from(*self.awaiting_press.get(side)))
    }

    /// The number of `side`'s move that is on the board and awaits its press, if any.
    fn move_awaiting_press(&self, side: Side) -> Option<u32> {
        self.awaiting_press.get(side).then(|| {
            self.before_record
                .get(side)
                .saturating_add(*self.on_board.get(side))
                .saturating_add(*self.unrecorded_moves.get(side))
        })
    }

    /// The clocks as the other parts read them when judging an event recorded with
    /// `reading`: the reading's times replace the times last read.
    pub(super) fn view(&self, reading: Option<&ClockReading>) -> ClocksView<'_> {
        let read = BySide::new(|side| {
            let shown = reading.and_then(|r| match side {
                Side::White => r.white_ms,
                Side::Black => r.black_ms,
            });
            shown.or(self.read_time(side))
        });
        ClocksView::new(&self.periods, self.increment_ms, read, self.start_turn)
            .with_awaiting_press(BySide::new(|side| self.move_awaiting_press(side)))
            .with_moves_before(self.before_record, self.record_start_ply)
    }

    /// The record goes on from `position`, which the arbiter reconstructed at `ply` (7.1,
    /// 7.5.1, 7.6, 8.5.3): each player has completed the moves its move number implies (as a
    /// game created from it, `super::settings::start_moves`), the moves on the board count
    /// from it and the periods of the Laws follow that count; the displays keep what was
    /// last read or set, in the period they were counting (a reading recorded with the
    /// decision is the time the arbiter set, 7.1): they are the new bounds. A clock never
    /// read is taken as the control gives it for the count.
    fn restart_from(&mut self, ply: usize, position: &shakmaty::Chess) {
        use shakmaty::Position;
        let start_turn = Side::from(position.turn());
        let before = position.fullmoves().get().saturating_sub(1);
        self.before_record = BySide {
            white: before + u32::from(start_turn == Side::Black),
            black: before,
        };
        self.start_turn = start_turn;
        self.record_start_ply = ply;
        self.on_board = BySide::default();
        self.awaiting_press = BySide::default();
        self.unrecorded_moves = BySide::default();
        self.last_credit = BySide::default();
        let mut periods =
            PeriodTracker::new(self.periods.control().clone(), self.periods.behaviour());
        for side in [Side::White, Side::Black] {
            let moves = *self.before_record.get(side);
            if moves > 0 {
                periods.set_moves_completed(side, moves);
            }
            match *self.times.get(side) {
                Some(ms) => {
                    // The display shows what was read, in the period it was counting: a
                    // clock the reconstruction puts past a control it had not reached is
                    // behind (a flag then is judged on the reconstructed count, 6.4).
                    periods.record_reading(side, ms);
                    let counting = self.periods.status(side).clock_period;
                    let before_counting = counting
                        .checked_sub(1)
                        .and_then(|p| periods.control().last_move_of_period(p))
                        .unwrap_or(0);
                    periods.record_clock_counter(side, before_counting);
                }
                None => *self.times.get_mut(side) = Some(periods.display_ms(side)),
            }
            *self.ceiling.get_mut(side) = periods.display_ms(side);
        }
        self.periods = periods;
    }

    /// Both players' place in the control, for the game view.
    pub(super) fn periods_view(&self, edition: LawsEdition) -> PeriodsView {
        let tracker = &self.periods;
        let player = |side: Side| {
            let status = tracker.status(side);
            let duty = tracker.scoresheet_duty(side);
            let unknown = tracker.clone().move_count_unknown(side, None).ok();
            PlayerPeriod {
                period: status.period + 1,
                clock_period: status.clock_period + 1,
                moves_completed: status.moves_completed,
                move_awaiting_press: self.move_awaiting_press(side),
                moves_to_control: status.moves_to_control,
                last_period: status.last_period,
                control_reached: status.control_reached_on_clock,
                must_keep_score: duty.must_record,
                scoresheet_article: (!duty.must_record).then(|| duty.article(edition)),
                if_count_unknown_next_period: unknown.map(|ruling| ruling.period + 1),
            }
        };
        PeriodsView {
            periods: tracker.control().periods.len(),
            white: player(Side::White),
            black: player(Side::Black),
            reading_discrepancies: self.discrepancies.clone(),
        }
    }

    /// After an event is folded: the moves each player has completed now that the board
    /// stands at `ply` (6.2.1: a move is completed by its press, see the module's notes),
    /// then the readings recorded with the event, which the clock shows after it.
    pub(super) fn after_event(&mut self, ply: usize, event: &Event, clock: Option<&ClockReading>) {
        self.note_presses(ply, event, clock);
        let mut period_time_added = false;
        for side in [Side::White, Side::Black] {
            let own = self.completed(side);
            let done = self.periods.moves_completed(side);
            if own < done {
                self.periods.set_moves_completed(side, own);
            }
            for _ in done..own {
                // A clock that counts presses adds the next period's time at the press that
                // completes the period's moves (6.3.2); a reading, if any, then replaces it.
                let press = self.periods.press(side, 0);
                if press.period_time_ms > 0 {
                    self.add(side, press.period_time_ms);
                    period_time_added = true;
                }
                let credit = press
                    .increment_ms
                    .saturating_add(press.period_time_ms)
                    .saturating_add(self.granted_increment_ms);
                *self.last_credit.get_mut(side) = Some(Credit {
                    total_ms: credit,
                    period_ms: press.period_time_ms,
                });
                let ceiling = self.ceiling.get_mut(side);
                *ceiling = ceiling.saturating_add(credit);
            }
        }
        let mut readings = Vec::new();
        if let Some(reading) = clock {
            readings.push((Side::White, reading.white_ms));
            readings.push((Side::Black, reading.black_ms));
        }
        // The display of the player who pressed is stopped: the only reading that shows what
        // the latest press left on it.
        let mut pressed_by = None;
        if let Event::Recorded(RecordedEvent::ClockPress {
            by,
            white_ms,
            black_ms,
        }) = event
        {
            pressed_by = Some(*by);
            readings.push((Side::White, *white_ms));
            readings.push((Side::Black, *black_ms));
        }
        for (side, ms) in readings {
            if let Some(ms) = ms {
                self.check_reading(side, ms, pressed_by == Some(side));
                self.periods.record_reading(side, ms);
                if period_time_added {
                    // The reading recorded with the event shows the clock after the press.
                    self.set(side, Some(ms));
                }
            }
        }
    }

    /// Which moves on the board the record shows completed after `event` (6.2.1): a new
    /// move awaits its press unless it was recorded with the clock's reading (taken at the
    /// press) or as a completed illegal move; the player's previous move is completed by it
    /// (6.2.1.2); a `clock_press` completes the presser's move, and the opponent's (whose
    /// clock had to be stopped for the presser's to run); a move that ends the game is
    /// completed (6.2.1.1).
    fn note_presses(&mut self, ply: usize, event: &Event, clock: Option<&ClockReading>) {
        for side in [Side::White, Side::Black] {
            let now = self.board_moves(side, ply);
            let before = *self.on_board.get(side);
            if now < before {
                // The board went back (a move taken back): its press goes with it.
                *self.awaiting_press.get_mut(side) = false;
            } else if now > before {
                let pressed = clock.is_some()
                    || matches!(
                        event,
                        Event::Recorded(RecordedEvent::IllegalMove {
                            completed: true,
                            ..
                        })
                    );
                *self.awaiting_press.get_mut(side) = !pressed;
                self.records_presses |= pressed;
                if pressed || !self.records_presses {
                    // The mover's press starts the opponent's clock: the opponent's move
                    // before it was pressed too. A record of moves only cannot show the
                    // press: the reply is taken to show it.
                    *self.awaiting_press.get_mut(side.opponent()) = false;
                }
            }
            *self.on_board.get_mut(side) = now;
        }
        match event {
            Event::Recorded(RecordedEvent::ClockPress { .. }) => {
                self.awaiting_press = BySide::default();
                self.records_presses = true;
            }
            Event::Service(ServiceEvent::GameEnded { termination, .. })
                if termination.ends_by_the_move() && ply > self.record_start_ply =>
            {
                // 6.2.1.1: the move that ended the game, the last on the board.
                let mover = if (ply - self.record_start_ply - 1).is_multiple_of(2) {
                    self.start_turn
                } else {
                    self.start_turn.opponent()
                };
                *self.awaiting_press.get_mut(mover) = false;
            }
            _ => {}
        }
    }

    /// Notes a reading of `side`'s display that does not fit: above the most the display can
    /// show, or, read at the player's own press (`at_own_press`: the display is stopped),
    /// below what the latest press added (the player used more than the display held, or
    /// the clock did not add the next period). The reading becomes the new ceiling.
    fn check_reading(&mut self, side: Side, read_ms: u64, at_own_press: bool) {
        let ceiling = *self.ceiling.get(side);
        let credit = self.last_credit.get_mut(side).take().unwrap_or_default();
        let counting =
            self.periods.behaviour().period_time_added == PeriodTimeAdded::AtControlPress;
        let pending = self
            .periods
            .status(side)
            .time_left_ms
            .saturating_sub(self.periods.display_ms(side));
        let found = if read_ms > ceiling.saturating_add(READING_TOLERANCE_MS) {
            if counting
                && pending > 0
                && read_ms
                    <= ceiling
                        .saturating_add(pending)
                        .saturating_add(READING_TOLERANCE_MS)
            {
                // A counting clock behind the log's count added the period late (at the
                // press after the control): it now shows the period of the Laws.
                let moves = self.periods.moves_completed(side);
                self.periods.record_clock_counter(side, moves);
                None
            } else if !counting && self.added_at_zero(side, read_ms, ceiling) {
                None
            } else {
                Some((DiscrepancyKind::MoreThanPossible, ceiling, 0))
            }
        } else if at_own_press && read_ms.saturating_add(READING_TOLERANCE_MS) < credit.total_ms {
            let without_period = credit.total_ms.saturating_sub(credit.period_ms);
            if counting
                && credit.period_ms > 0
                && read_ms.saturating_add(READING_TOLERANCE_MS) >= without_period
            {
                // 6.10.2: the reading fits a clock that did not add the period at this
                // press: its counter is one press behind the log. The Laws count the log.
                let moves = self.periods.moves_completed(side);
                self.periods
                    .record_clock_counter(side, moves.saturating_sub(1));
                Some((
                    DiscrepancyKind::ClockCountBehind,
                    credit.total_ms,
                    credit.period_ms,
                ))
            } else {
                Some((
                    DiscrepancyKind::DisplayWouldHaveReachedZero,
                    credit.total_ms,
                    credit.period_ms,
                ))
            }
        } else {
            None
        };
        if let Some((kind, bound_ms, period_ms)) = found {
            let status = self.periods.status(side);
            let clock_count = (kind == DiscrepancyKind::ClockCountBehind).then(|| ClockCount {
                clock_moves: status.moves_completed.saturating_sub(1),
                clock_period: status.clock_period + 1,
                period_to_show: status.period + 1,
            });
            self.discrepancies.push(ReadingDiscrepancy {
                seq: self.seq,
                side,
                read_ms,
                bound_ms,
                kind,
                moves_completed: self.periods.moves_completed(side),
                period: self.periods.period(side) + 1,
                period_time_added_ms: period_ms,
                clock_count,
            });
        }
        *self.ceiling.get_mut(side) = read_ms;
    }

    /// Whether a reading of `side`'s display above what it could show is the next period's
    /// time, added by a clock that adds it when a display reaches 0:00 (6.3.2, 6.4): the
    /// reading is at most the display's bound plus that period's time, and the moves of the
    /// period the clock counted were completed by `side` and, on a clock that adds it to both
    /// displays, by the opponent too (whichever display reached 0:00, no flag lost). The
    /// clock then counts the next period (both displays on such a clock).
    fn added_at_zero(&mut self, side: Side, read_ms: u64, ceiling: u64) -> bool {
        let both = self.periods.behaviour().period_time_added == PeriodTimeAdded::AtZeroBothClocks;
        let status = self.periods.status(side);
        let Some(next_ms) = self
            .periods
            .control()
            .periods
            .get(status.clock_period + 1)
            .map(|p| p.time_ms)
        else {
            return false;
        };
        let opponent = self.periods.status(side.opponent());
        let lawful = status.control_reached_on_clock
            && (!both
                || opponent.control_reached_on_clock
                || opponent.clock_period > status.clock_period);
        if !lawful
            || read_ms
                > ceiling
                    .saturating_add(next_ms)
                    .saturating_add(READING_TOLERANCE_MS)
        {
            return false;
        }
        self.periods
            .record_clock_counter(side, status.moves_completed);
        if both && opponent.clock_period == status.clock_period {
            self.periods
                .record_clock_counter(side.opponent(), opponent.moves_completed);
            self.shift_ceiling(side.opponent(), i64::try_from(next_ms).unwrap_or(i64::MAX));
        }
        true
    }

    /// Changes the most `side`'s display can show by `delta_ms`.
    fn shift_ceiling(&mut self, side: Side, delta_ms: i64) {
        let ceiling = self.ceiling.get_mut(side);
        *ceiling = ceiling.saturating_add_signed(delta_ms);
    }

    /// A reading off the clock: the times shown replace what the engine kept.
    fn observe(&mut self, reading: &ClockReading) {
        self.set(Side::White, reading.white_ms);
        self.set(Side::Black, reading.black_ms);
    }

    /// The times read at a clock press.
    fn pressed(&mut self, white_ms: Option<u64>, black_ms: Option<u64>) {
        self.set(Side::White, white_ms);
        self.set(Side::Black, black_ms);
    }

    fn set(&mut self, side: Side, ms: Option<u64>) {
        if let Some(ms) = ms {
            *self.times.get_mut(side) = Some(ms);
            *self.read.get_mut(side) = true;
        }
    }

    /// Time added (a penalty for the opponent, 7.5.5, 9.5.3) or, when negative, removed.
    fn adjust(&mut self, side: Side, delta_ms: i64) {
        if let Some(ms) = self.times.get_mut(side) {
            *ms = ms.saturating_add_signed(delta_ms);
        }
    }

    /// Extra time given to `side`.
    fn add(&mut self, side: Side, ms: u64) {
        if let Some(time) = self.times.get_mut(side) {
            *time = time.saturating_add(ms);
        }
    }

    /// Extra time taken back (void, as after an incorrect claim accepted as an offer).
    fn take_back(&mut self, side: Side, ms: u64) {
        if let Some(time) = self.times.get_mut(side) {
            *time = time.saturating_sub(ms);
        }
    }

    /// The time `side` has left, when a reading of that clock has been recorded.
    fn read_time(&self, side: Side) -> Option<u64> {
        if *self.read.get(side) {
            *self.times.get(side)
        } else {
            None
        }
    }

    /// The increment in force.
    pub(super) fn increment_ms(&self) -> u64 {
        self.increment_ms
    }

    /// From now on both players have this increment (Guidelines III.4).
    fn set_increment(&mut self, increment_ms: u64) {
        self.increment_ms = increment_ms;
    }

    /// The times as shown to the arbiter.
    pub(super) fn times(&self) -> ClockTimes {
        ClockTimes {
            white_ms: self.times.white,
            black_ms: self.times.black,
        }
    }
}

impl Fold for Clocks {
    /// A reading recorded with any event, and a `clock_press`, replace the times kept; the
    /// extra time of a penalty is added (7.5.5, 9.5.3, III), or taken back when it becomes
    /// void (9.1.2.3); the arbiter adjusts the clocks, or grants an increment (III.4).
    fn apply(&mut self, ctx: &FoldContext<'_>, event: &Event) -> Result<(), CorruptLog> {
        self.seq = ctx.seq;
        if let Some(reading) = ctx.clock {
            self.observe(reading);
        }
        match event {
            Event::Recorded(RecordedEvent::ClockPress {
                white_ms, black_ms, ..
            }) => self.pressed(*white_ms, *black_ms),
            Event::Recorded(RecordedEvent::ClockAdjust { side, delta_ms, .. }) => {
                self.change_time(*side, *delta_ms)
            }
            Event::Recorded(RecordedEvent::DrawAccept { .. }) => {
                // 9.1.2.3 (REP-17): the extra time for the incorrect claim is void.
                if let Some((side, add_ms)) = ctx.void_extra_time {
                    self.take_back(side, add_ms);
                    self.shift_ceiling(side, -i64::try_from(add_ms).unwrap_or(i64::MAX));
                }
            }
            Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::IncrementGranted,
                increment_ms,
                ..
            }) => {
                let granted = increment_ms.unwrap_or(GRANTED_INCREMENT_MS);
                self.set_increment(granted);
                self.granted_increment_ms = granted;
            }
            // 12.9.3: time taken from the offender by a fair-play ruling (12.9.2's time comes
            // as a `penalty_applied`).
            Event::Recorded(RecordedEvent::FairPlay {
                time_penalty: Some(penalty),
                ..
            }) if penalty.delta_ms < 0 => self.change_time(penalty.side, penalty.delta_ms),
            Event::Service(ServiceEvent::PenaltyApplied { side, add_ms, .. }) => {
                self.add(*side, *add_ms);
                self.shift_ceiling(*side, i64::try_from(*add_ms).unwrap_or(i64::MAX));
            }
            // 6.4: the flag is checked against the moves of the period; when they were
            // completed, the clock goes on with the next period (its time comes with the
            // `penalty_applied` the ruling appended).
            Event::Recorded(RecordedEvent::Flag { side }) => {
                if let FlagOutcome::ControlReached { .. } = self.periods.flag_ruling(*side).outcome
                {
                    self.periods.display_reached_zero(*side);
                }
            }
            // 8.5, 8.6, 6.10.2: the arbiter's count; the moves the record lacks are kept, and
            // the period time credited comes with the `penalty_applied` of the ruling.
            Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::MoveCountSet,
                move_count: Some(count),
                ..
            }) => self.move_count_set(count, ctx.ply),
            // 7.1: the game goes on from the position the arbiter reconstructed; its move
            // number gives the moves completed, and the clocks show what the arbiter set.
            Event::Recorded(RecordedEvent::ArbiterDecision {
                decision: ArbiterRuling::PositionReconstructed,
                ..
            }) => {
                let super::prepared::Prepared::Reconstructed(position) = &ctx.prepared else {
                    return Err(ctx.mismatch("the position the arbiter reconstructed"));
                };
                self.restart_from(ctx.ply + 1, position);
            }
            // III.3.1.1: both flags in a period that is not the last; the game goes on in the
            // next period for each player.
            Event::Recorded(RecordedEvent::BothFlags {})
                if self.periods.both_flags_order_unknown().outcome
                    == BothFlagsOutcome::GameContinues =>
            {
                self.both_go_on_to_the_next_period();
            }
            _ => {}
        }
        Ok(())
    }
}

impl Clocks {
    /// A time given or taken by the arbiter (6.10.2, 12.9.3): the clock and the ceiling of
    /// what it may show move together.
    fn change_time(&mut self, side: Side, delta_ms: i64) {
        self.adjust(side, delta_ms);
        self.shift_ceiling(side, delta_ms);
    }

    /// 8.5, 8.6, 6.10.2: the arbiter's count of `count.side`'s moves; the moves the record
    /// lacks are kept, and the period time credited comes with the `penalty_applied` of the
    /// ruling.
    fn move_count_set(&mut self, count: &MoveCount, ply: usize) {
        let ruling = match count.moves {
            Some(moves) => Some(self.periods.set_moves_completed(count.side, moves)),
            None => self.periods.move_count_unknown(count.side, None).ok(),
        };
        if let Some(ruling) = ruling {
            // The arbiter's count includes the move on the board awaiting its press.
            let recorded = self
                .before_record
                .get(count.side)
                .saturating_add(self.board_moves(count.side, ply));
            *self.awaiting_press.get_mut(count.side) = false;
            *self.unrecorded_moves.get_mut(count.side) =
                ruling.moves_completed.saturating_sub(recorded);
        }
    }

    /// III.3.1.1: both flags in a period that is not the last; each player's clock goes on
    /// with the next period.
    fn both_go_on_to_the_next_period(&mut self) {
        for side in [Side::White, Side::Black] {
            let period = self.periods.status(side).clock_period;
            if let Some(last) = self.periods.control().last_move_of_period(period) {
                self.periods.record_clock_counter(side, last);
            }
        }
    }
}
