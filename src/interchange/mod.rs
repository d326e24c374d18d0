pub mod broadcast;
pub mod pgn_export;
