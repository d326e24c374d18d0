//! Rules tests: the Article 9 cases, differential tests against the python-chess oracle,
//! the chasolver dead-position classes and property tests. No database needed.

mod analyser;
mod audit;
mod cases;
mod completed_moves;
mod corrupt_log;
mod dead_position_check;
mod dgt_feed;
mod dgt_import;
mod evidence;
mod fair_play;
mod from_position;
mod helpmate_search_patch;
mod live_engine_oracle;
mod narration;
mod oracle;
mod periods;
mod properties;
mod reconstruction;
mod second_pass;
mod shared;
mod table;
mod tie_breaks;
mod time_control;
mod wire_names;
