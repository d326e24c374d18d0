//! API and store tests against a real PostgreSQL (a fresh database per test), driving HTTP
//! in-process through the same app the server runs. One binary, so one link step.

mod broadcast_pgn;
mod browser;
mod cases;
mod cli;
mod cors;
mod desk_evidence;
mod diagrams;
mod failover;
mod fair_play;
mod follower;
mod generated_client;
mod harness;
mod import;
mod layout;
mod log_guarantees;
mod office;
mod openapi;
mod operations;
mod recording;
mod replica;
mod requests;
mod schema;
mod second_pass;
mod shared;
mod streams;
mod support;
mod swagger_ui;
mod test_server;
mod time_controls;
mod tournaments;
mod trf_export;
mod trust;
mod upgrade;
mod web;
mod write_path;
