//! The tournament form's fields that set the tie-breaks (FIDE C.07) and the text of C.07 that
//! governs unplayed rounds: a module of their own, so that the tournament page takes them
//! without importing the standings page (which builds on the reports).

use crate::rules::tie_breaks::{TieBreak, UnplayedRounds};
use crate::tournament::TournamentSettings;
use maud::{Markup, html};

/// The tournament form's fields for the tie-breaks, as the page names its inputs (a part of
/// the tournament's form type, flattened into it), as text.
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(default)]
pub struct TieBreakFields {
    /// The tie-breaks' codes in order, separated by commas or spaces (`BH/C1, BH, SB`).
    pub tie_breaks: Option<String>,
    /// The text of C.07 for unplayed rounds: `2023`, `before_2023`, or none for the one in
    /// force on the first day.
    pub unplayed_rounds: Option<String>,
}

/// The tournament form's fields for the tie-breaks, filled with `values`.
pub fn form_fields(values: &TieBreakFields) -> Markup {
    let chosen = values.unplayed_rounds.as_deref();
    html! {
        label for="tie_breaks" { "Tie-breaks, in order (FIDE C.07)" }
        input #tie_breaks name="tie_breaks" value=(values.tie_breaks.clone().unwrap_or_default()) maxlength="200"
            placeholder="e.g. BH/C1, BH, SB, DE (none: equal points share a place)" autocomplete="off";
        p.hint { "Known: " (TieBreak::codes()) "." }
        label for="unplayed_rounds" { "Unplayed rounds in the tie-breaks" }
        select #unplayed_rounds name="unplayed_rounds" {
            option value="" selected[chosen.is_none()] { "By the first day (the 2023 rules from 1 April 2024)" }
            option value="2023" selected[chosen == Some("2023")] { "C.07 as revised in 2023 (dummy opponent)" }
            option value="before_2023" selected[chosen == Some("before_2023")] { "C.07 before 2023 (virtual opponent)" }
        }
    }
}

/// The form values of a tournament's tie-breaks.
pub fn form_values(settings: &TournamentSettings) -> TieBreakFields {
    let codes: Vec<&str> = settings.tie_breaks.iter().map(|t| t.code()).collect();
    let unplayed = settings.unplayed_rounds.map(|unplayed| match unplayed {
        UnplayedRounds::Fide2023 => "2023",
        UnplayedRounds::Before2023 => "before_2023",
    });
    TieBreakFields {
        tie_breaks: Some(codes.join(", ")),
        unplayed_rounds: unplayed.map(str::to_owned),
    }
}

/// Reads the tie-break fields of the tournament form.
pub fn from_form(
    fields: &TieBreakFields,
) -> Result<(Vec<TieBreak>, Option<UnplayedRounds>), String> {
    let tie_breaks = fields
        .tie_breaks
        .as_deref()
        .map(|text| {
            text.split([',', ' '])
                .filter(|code| !code.is_empty())
                .map(|code| {
                    TieBreak::parse(code).ok_or_else(|| {
                        format!(
                            "`{code}` is not a tie-break this service computes; give some of {}, \
                             in order.",
                            TieBreak::codes()
                        )
                    })
                })
                .collect::<Result<Vec<_>, _>>()
        })
        .transpose()?
        .unwrap_or_default();
    let unplayed = match fields.unplayed_rounds.as_deref() {
        Some("2023") => Some(UnplayedRounds::Fide2023),
        Some("before_2023") => Some(UnplayedRounds::Before2023),
        _ => None,
    };
    Ok((tie_breaks, unplayed))
}
