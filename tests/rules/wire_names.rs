//! The names the code gives variants (derived with strum, for the store, the read model and
//! the metrics) are the names serde writes on the wire: one spelling per variant.

use arbiter::access::Role;
use arbiter::game::audit::AuditVerdict;
use arbiter::game::event::{EndCause, Termination};
use arbiter::game::fair_play::FairPlayRole;
use arbiter::rules::automatic_end::AutomaticEndKind;
use arbiter::rules::evidence::{ClaimForm, ClaimKind, PositionDifference};
use arbiter::rules::laws::TimeControlKind;
use serde::Serialize;
use strum::IntoEnumIterator;

/// Every variant of `E`: its derived name equals its serde name, and parses back where the
/// enum parses.
fn same_names<E: IntoEnumIterator + Serialize + Copy>(name: impl Fn(E) -> &'static str) {
    let mut seen = 0;
    for variant in E::iter() {
        let wire = serde_json::to_value(variant).expect("a fieldless variant serialises");
        assert_eq!(wire.as_str(), Some(name(variant)));
        seen += 1;
    }
    assert!(seen > 1, "the enum has its variants");
}

#[test]
fn a_termination_has_one_name_on_the_wire_and_in_the_read_model() {
    same_names(Termination::name);
}

#[test]
fn an_end_cause_has_one_name_on_the_wire_and_in_the_log() {
    same_names(EndCause::name);
}

#[test]
fn an_audit_verdict_has_one_name_in_the_api_and_the_metrics() {
    same_names(AuditVerdict::as_str);
}

#[test]
fn a_role_and_a_fair_play_role_are_stored_as_the_api_writes_them_and_read_back() {
    same_names(Role::as_str);
    same_names(FairPlayRole::as_str);
    for role in Role::iter() {
        assert_eq!(Role::parse(role.as_str()), Some(role));
    }
    for role in FairPlayRole::iter() {
        assert_eq!(FairPlayRole::parse(role.as_str()), Some(role));
    }
    assert_eq!(Role::parse("Arbiter"), None);
}

#[test]
fn a_claim_its_form_and_a_position_difference_are_named_as_the_api_writes_them() {
    same_names(ClaimKind::name);
    same_names(ClaimForm::name);
    same_names(PositionDifference::name);
    same_names(TimeControlKind::into);
}

#[test]
fn an_automatic_end_is_named_as_the_termination_it_becomes() {
    for kind in AutomaticEndKind::iter() {
        assert!(
            Termination::iter().any(|termination| termination.name() == kind.name()),
            "{} is a termination's name",
            kind.name()
        );
    }
}
