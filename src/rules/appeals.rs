//! The appeals procedure an event's regulations set: the deadline for lodging an appeal, the
//! deposit, and the appeals committee with the rules on who may sit on it.
//!
//! The Laws give the right of appeal (11.10 in the 2018 and 2023 editions: "Unless the
//! regulations of an event specify otherwise, a player may appeal against any decision of the
//! arbiter, even if the player has signed the scoresheet") and leave the procedure to the
//! regulations. The checks here follow the texts an event names:
//!
//! * FIDE Handbook C.11, Appeals Committee Procedural Rules (applied from 1 January 2023):
//!   the members and reserves represent different federations (2.4); only the chairman need
//!   be present at the venue, the others may sit by video conference (2.6); a person serving
//!   a ban of the Fair Play, Ethics & Disciplinary or Arbiters' Disciplinary Commission, or
//!   under probation, is not eligible (2.7); an appeal is submitted within a time after the
//!   round or the infringement (3.4: 1 hour in standard play, 15 minutes in rapid and blitz).
//! * ECU Tournament Rules: an appeal within the time the rules set after the game, a deposit
//!   returned if the appeal succeeds, and no member of the chief arbiter's federation.
//!
//! Pure: times are given, never read from a clock.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// What the event's regulations say about appeals. Absent (the default) when they say
/// nothing: any appeal is then admissible, decided by whoever records it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct AppealRegulations {
    /// The regulation the procedure follows, as it is cited in decisions (e.g. `FIDE Handbook
    /// C.11` or `ECU Tournament Rules`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200)]
    pub regulation: Option<String>,
    /// Minutes within which an appeal must be lodged (C.11 3.4: 60 in standard play, 15 in
    /// rapid and blitz). Absent: no deadline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, maximum = 10080)]
    pub deadline_minutes: Option<u32>,
    /// From when the deadline runs: the end of the game appealed about (default) or of the
    /// round (its last game).
    #[serde(default, skip_serializing_if = "DeadlineFrom::is_game_end")]
    pub deadline_from: DeadlineFrom,
    /// The deposit an appeal is lodged with (an amount and currency, as the regulations
    /// write it): returned if the appeal is upheld, kept if it is dismissed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 200)]
    pub deposit: Option<String>,
    /// The appeals committee: chairman, members and reserves. When given, every decision
    /// names who sat on it, and their eligibility is checked.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub committee: Vec<CommitteeMember>,
    /// The chief arbiter's federation (ECU: no member of it sits on the committee).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 3)]
    pub chief_arbiter_federation: Option<String>,
}

impl AppealRegulations {
    /// Whether nothing is set.
    pub fn is_default(&self) -> bool {
        *self == AppealRegulations::default()
    }
}

/// From when the deadline for an appeal runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineFrom {
    /// The end of the game.
    #[default]
    GameEnd,
    /// The end of the round (its last game to end).
    RoundEnd,
}

impl DeadlineFrom {
    fn is_game_end(&self) -> bool {
        *self == DeadlineFrom::GameEnd
    }
}

/// A member of the appeals committee, as the regulations name them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CommitteeMember {
    /// The member's name.
    #[schema(max_length = 200)]
    pub name: String,
    /// The federation the member represents (FIDE code, e.g. `GER`).
    #[schema(max_length = 3)]
    pub federation: String,
    /// Chairman, member or reserve.
    #[serde(default)]
    pub role: CommitteeRole,
    /// Serving a ban of the Fair Play, Ethics & Disciplinary or Arbiters' Disciplinary
    /// Commission, or under probation (C.11 2.7): not eligible.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub banned: bool,
}

/// A committee member's role.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CommitteeRole {
    /// The chairman, who must be present at the venue (C.11 2.6).
    Chairman,
    /// A member.
    #[default]
    Member,
    /// A reserve member, who sits in place of a member (C.11 2.3).
    Reserve,
}

/// A member who sat on a decision.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Sitting {
    /// The member's name, as in the regulations' committee.
    #[schema(max_length = 200)]
    pub name: String,
    /// Whether the member sat by video conference (C.11 2.6).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_video: bool,
}

/// Whether an appeal lodged at `lodged_at` is within the deadline counted from `from` (the
/// end of the game or of the round), or the sentence that says why not.
pub fn check_deadline(
    regulations: &AppealRegulations,
    from: DateTime<Utc>,
    lodged_at: DateTime<Utc>,
) -> Result<(), String> {
    let Some(minutes) = regulations.deadline_minutes else {
        return Ok(());
    };
    let deadline = from + Duration::minutes(i64::from(minutes));
    if lodged_at <= deadline {
        return Ok(());
    }
    let late = lodged_at - deadline;
    Err(format!(
        "The appeal was lodged at {} UTC, {} after the deadline of {} UTC: the regulations{} \
         allow {minutes} minutes from the end of the {} ({} UTC). It is not admissible, and \
         nothing was stored.",
        lodged_at.format("%Y-%m-%d %H:%M:%S"),
        duration_text(late),
        deadline.format("%H:%M:%S"),
        regulations
            .regulation
            .as_deref()
            .map(|r| format!(" ({r})"))
            .unwrap_or_default(),
        match regulations.deadline_from {
            DeadlineFrom::GameEnd => "game",
            DeadlineFrom::RoundEnd => "round",
        },
        from.format("%H:%M:%S"),
    ))
}

/// `1 h 12 min 5 s`.
fn duration_text(duration: Duration) -> String {
    let seconds = duration.num_seconds().max(0);
    let (h, m, s) = (seconds / 3600, (seconds / 60) % 60, seconds % 60);
    let mut parts = Vec::new();
    if h > 0 {
        parts.push(format!("{h} h"));
    }
    if m > 0 {
        parts.push(format!("{m} min"));
    }
    if s > 0 || parts.is_empty() {
        parts.push(format!("{s} s"));
    }
    parts.join(" ")
}

/// Whether the members in `sitting` may decide an appeal under `regulations`, or every
/// reason they may not, in words.
pub fn check_committee(
    regulations: &AppealRegulations,
    sitting: &[Sitting],
) -> Result<(), Vec<String>> {
    if regulations.committee.is_empty() {
        return Ok(());
    }
    let mut problems = Vec::new();
    if sitting.is_empty() {
        problems.push(
            "The regulations name an appeals committee: say who sat on this decision \
             (`committee`, each member by name)."
                .to_string(),
        );
        return Err(problems);
    }
    let mut members = Vec::new();
    for seat in sitting {
        match regulations
            .committee
            .iter()
            .find(|m| m.name.trim().eq_ignore_ascii_case(seat.name.trim()))
        {
            Some(member) => members.push((member, seat)),
            None => problems.push(format!(
                "{} is not on the event's appeals committee ({}).",
                seat.name,
                regulations
                    .committee
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    for (member, _) in &members {
        if member.banned {
            problems.push(format!(
                "{} is serving a ban of a FIDE commission or is under probation, and is not \
                 eligible (FIDE Handbook C.11, 2.7).",
                member.name
            ));
        }
        if let Some(federation) = &regulations.chief_arbiter_federation
            && member.federation.eq_ignore_ascii_case(federation)
        {
            problems.push(format!(
                "{} is of the chief arbiter's federation ({federation}), and may not sit \
                 (ECU Tournament Rules).",
                member.name
            ));
        }
    }
    for (i, (a, _)) in members.iter().enumerate() {
        if let Some((b, _)) = members[i + 1..]
            .iter()
            .find(|(b, _)| b.federation.eq_ignore_ascii_case(&a.federation))
        {
            problems.push(format!(
                "{} and {} both represent {}: the members must represent different \
                 federations (FIDE Handbook C.11, 2.4).",
                a.name, b.name, a.federation
            ));
        }
    }
    match members
        .iter()
        .find(|(m, _)| m.role == CommitteeRole::Chairman)
    {
        None => problems.push(
            "The chairman of the appeals committee did not sit: a decision needs the chairman \
             (FIDE Handbook C.11, 2.6)."
                .to_string(),
        ),
        Some((chairman, seat)) if seat.by_video => problems.push(format!(
            "{} is the chairman and must be present at the venue; only the other members may \
             sit by video conference (FIDE Handbook C.11, 2.6).",
            chairman.name
        )),
        Some(_) => {}
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn committee() -> AppealRegulations {
        AppealRegulations {
            regulation: Some("ECU Tournament Rules".into()),
            deadline_minutes: Some(60),
            committee: vec![
                CommitteeMember {
                    name: "Anna Chair".into(),
                    federation: "NED".into(),
                    role: CommitteeRole::Chairman,
                    banned: false,
                },
                CommitteeMember {
                    name: "Ben Member".into(),
                    federation: "GER".into(),
                    role: CommitteeRole::Member,
                    banned: false,
                },
                CommitteeMember {
                    name: "Carl Member".into(),
                    federation: "GER".into(),
                    role: CommitteeRole::Member,
                    banned: true,
                },
                CommitteeMember {
                    name: "Dora Reserve".into(),
                    federation: "FRA".into(),
                    role: CommitteeRole::Reserve,
                    banned: false,
                },
            ],
            chief_arbiter_federation: Some("FRA".into()),
            ..Default::default()
        }
    }

    fn sit(name: &str, by_video: bool) -> Sitting {
        Sitting {
            name: name.into(),
            by_video,
        }
    }

    #[test]
    fn a_chairman_present_and_members_of_different_federations_may_decide() {
        assert_eq!(
            check_committee(
                &committee(),
                &[sit("Anna Chair", false), sit("Ben Member", true)]
            ),
            Ok(())
        );
    }

    #[test]
    fn every_reason_a_committee_may_not_sit_is_said_in_words() {
        let problems = check_committee(
            &committee(),
            &[
                sit("Anna Chair", true),
                sit("Ben Member", false),
                sit("Carl Member", false),
                sit("Dora Reserve", false),
                sit("Eve Stranger", false),
            ],
        )
        .expect_err("not eligible");
        let all = problems.join(" ");
        assert!(all.contains("Eve Stranger is not on the event's appeals committee"));
        assert!(all.contains("Carl Member is serving a ban"));
        assert!(all.contains("Dora Reserve is of the chief arbiter's federation (FRA)"));
        assert!(all.contains("Ben Member and Carl Member both represent GER"));
        assert!(all.contains("Anna Chair is the chairman and must be present"));
    }

    #[test]
    fn an_appeal_after_the_deadline_is_refused_with_the_times() {
        let end: DateTime<Utc> = "2026-05-03T14:30:00Z".parse().expect("a time");
        let regs = committee();
        assert_eq!(
            check_deadline(&regs, end, end + Duration::minutes(60)),
            Ok(())
        );
        let late = check_deadline(&regs, end, end + Duration::minutes(72)).expect_err("late");
        assert!(late.contains("14:30:00"), "{late}");
        assert!(late.contains("15:42:00"), "{late}");
        assert!(
            late.contains("12 min after the deadline of 15:30:00"),
            "{late}"
        );
        assert!(late.contains("60 minutes"), "{late}");
        assert_eq!(
            check_deadline(&AppealRegulations::default(), end, end + Duration::days(3)),
            Ok(())
        );
    }
}
