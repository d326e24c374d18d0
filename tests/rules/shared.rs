//! Where the shared test data is: `../shared/` beside the repository, or the copy in
//! `tests/shared/` (see its README).

use std::path::PathBuf;

/// The path of `relative` inside the shared data.
pub fn shared(relative: &str) -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let beside = root.join("../shared").join(relative);
    if beside.exists() {
        beside
    } else {
        root.join("tests/shared").join(relative)
    }
}
