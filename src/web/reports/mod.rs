//! What the chief arbiter prints and the appeals committee reads: the claims and incidents of
//! an event (open and decided claims, every penalty, illegal move, arbiter's decision,
//! correction and appeal, with board, players, article and a link to the position), a
//! decision as the arbiter saw it (time travel to the `seq` before it) with the audit's
//! verdict and the appeal forms, and a round's results with its PGN.

mod appeals;
mod decision;
mod incidents;
mod results;
mod sheet;

pub use appeals::appeals;
pub use decision::decision;
pub use incidents::incidents;
pub use results::results;
pub use sheet::ReportQuery;
pub(super) use sheet::{
    ReportHead, board_label, players, report_head, retracted_mark, row_class, told,
};
