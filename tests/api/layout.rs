//! Every back-office page on a tablet: the venue of `web.rs` (a tournament with a round in
//! every state a floor meets) is walked from the front page by following the links each role
//! sees, and every page found is looked at in Chromium at 1024x768 (landscape) and 768x1024
//! (portrait). A page passes when nothing makes it scroll sideways, no element spills out of
//! its box, and no word is broken inside itself ("Recor/d", "Revok/e" a letter a line): a
//! word may only wrap at a space, or at a hyphen or a slash between letters (a date or a score
//! is one word). Hashes and tokens (`code`) are long strings that may break anywhere.
//!
//! With `ARBITER_LAYOUT_SHOTS=1` every page view is also saved under the test target's
//! `tmp/layout/all/`, to be looked at.

use crate::browser::{Browser, Office};
use crate::support::TestDb;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The sizes looked at: a tablet held either way.
const SIZES: [(u32, u32); 2] = [(1024, 768), (768, 1024)];

/// How many pages of one shape (the same path once ids and numbers are left out, the same
/// query keys) are looked at: two desks show more than one, thirty show nothing more.
const PAGES_PER_SHAPE: usize = 2;

/// What the page itself reports: sideways scrolling, spilled boxes, broken words.
const LAYOUT_CHECK: &str = r#"
const problems = [];
const root = document.documentElement;
if (root.scrollWidth > root.clientWidth + 1) {
  problems.push(`the page scrolls sideways (${root.scrollWidth} px wide in ${root.clientWidth})`);
}
const described = (el) => {
  const text = (el.innerText || '').trim().replace(/\s+/g, ' ').slice(0, 40);
  return `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''}${el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : ''} "${text}"`;
};
const scrolls = (el) => {
  for (let up = el; up && up !== document.body; up = up.parentElement) {
    const x = getComputedStyle(up).overflowX;
    if (x === 'auto' || x === 'scroll' || x === 'hidden') return true;
  }
  return false;
};
const main = document.querySelector('main') || document.body;
for (const el of main.querySelectorAll('*')) {
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.visibility === 'hidden' || el.closest('code, svg, pre, input, select, textarea, button')) continue;
  if (['inline', 'contents'].includes(style.display)) continue;
  if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !scrolls(el.parentElement)
      && !['auto', 'scroll', 'hidden'].includes(style.overflowX)) {
    problems.push(`${described(el)} spills out of its box (${el.scrollWidth} px in ${el.clientWidth})`);
  }
}
const walker = document.createTreeWalker(main, NodeFilter.SHOW_TEXT);
const broken = new Set();
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const parent = node.parentElement;
  if (!parent || parent.closest('code, svg, pre, script, style, textarea, option, [hidden]')) continue;
  // A word ends at a space, or at a hyphen or slash between letters; a date (2026-11-28)
  // or a score (1/2) is one word.
  const words = /(?:[^\s\-\u2010-\u2014\/]|(?<=\d)[\-\/](?=\d))+/gu;
  for (let m = words.exec(node.data); m; m = words.exec(node.data)) {
    if (m[0].length < 2) continue;
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const lines = new Set(Array.from(range.getClientRects())
      .filter((r) => r.width > 0 && r.height > 0)
      .map((r) => Math.round(r.bottom)));
    if (lines.size > 1) broken.add(`"${m[0]}" is broken over ${lines.size} lines in ${described(parent)}`);
  }
}
problems.push(...broken);
return problems;
"#;

/// The links of the page that lead to other back-office pages.
const LINKS: &str = r#"
return Array.from(document.querySelectorAll('a[href]'))
  .map((a) => new URL(a.getAttribute('href'), location.href))
  .filter((url) => url.origin === location.origin && url.pathname.startsWith('/office'))
  .map((url) => url.pathname + url.search);
"#;

/// A page's shape: its path with ids and numbers left out, and its query's keys.
fn shape(path: &str) -> String {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let segments: Vec<String> = path
        .split('/')
        .map(|segment| {
            if uuid::Uuid::parse_str(segment).is_ok() {
                "{id}".to_string()
            } else if !segment.is_empty() && segment.chars().all(|c| c.is_ascii_digit()) {
                "{n}".to_string()
            } else {
                segment.to_string()
            }
        })
        .collect();
    let keys: BTreeSet<&str> = query
        .split('&')
        .filter_map(|pair| pair.split('=').next())
        .filter(|key| !key.is_empty())
        .collect();
    format!(
        "{}?{}",
        segments.join("/"),
        keys.into_iter().collect::<Vec<_>>().join("&")
    )
}

/// Whether a link leads to a page (not a download, a diagram, a print or a sign-out).
fn is_page(path: &str) -> bool {
    let bare = path.split('?').next().unwrap_or(path);
    ![
        "/sign-out",
        ".svg",
        ".pgn",
        ".csv",
        ".json",
        ".txt",
        "/trf",
        "/export",
        "/assets/",
        "/download",
    ]
    .iter()
    .any(|skip| bare.contains(skip))
}

/// Walks the back office as the holder of `token` from its front page, and looks at every
/// page found at both sizes. Returns the problems by page and size, and the pages seen.
async fn walk(office: &Office, token: &str) -> (BTreeMap<String, Vec<String>>, Vec<String>) {
    let browser = Browser::open(SIZES[0].0, SIZES[0].1).await;
    browser.sign_in(office, token).await;
    let mut queue = VecDeque::from(["/office/".to_string()]);
    let mut seen = BTreeSet::new();
    let mut per_shape: BTreeMap<String, usize> = BTreeMap::new();
    let mut problems = BTreeMap::new();
    let mut visited = Vec::new();
    while let Some(path) = queue.pop_front() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let count = per_shape.entry(shape(&path)).or_default();
        if *count >= PAGES_PER_SHAPE {
            continue;
        }
        *count += 1;
        browser
            .client
            .goto(&office.url(&path))
            .await
            .expect("the page loads");
        visited.push(path.clone());
        for (width, height) in SIZES {
            browser
                .client
                .set_window_size(width, height)
                .await
                .expect("window size");
            tokio::time::sleep(std::time::Duration::from_millis(150)).await;
            let found: Value = browser
                .client
                .execute(LAYOUT_CHECK, vec![])
                .await
                .expect("the layout check runs");
            let found: Vec<String> = serde_json::from_value(found).expect("a list of problems");
            if std::env::var("ARBITER_LAYOUT_SHOTS").as_deref() == Ok("1") {
                // Every page view, to look at: target/tmp/layout/all/.
                let png = browser.client.screenshot().await.expect("screenshot");
                let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("layout/all");
                std::fs::create_dir_all(&dir).expect("a directory for the screenshots");
                let name: String = path
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                std::fs::write(dir.join(format!("{name}-{width}x{height}.png")), png)
                    .expect("the screenshot is written");
            }
            if !found.is_empty() {
                // What the failure speaks of, to look at: target/tmp/layout/.
                let png = browser.client.screenshot().await.expect("screenshot");
                let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("layout");
                std::fs::create_dir_all(&dir).expect("a directory for the screenshots");
                let file = dir.join(format!("{}-{width}x{height}.png", problems.len()));
                std::fs::write(&file, png).expect("the screenshot is written");
                problems.insert(
                    format!("{path} at {width}x{height} ({})", file.display()),
                    found,
                );
            }
        }
        let links: Value = browser.client.execute(LINKS, vec![]).await.expect("links");
        let links: Vec<String> = serde_json::from_value(links).expect("a list of links");
        queue.extend(links.into_iter().filter(|link| is_page(link)));
    }
    browser.close().await;
    (problems, visited)
}

#[test]
fn a_page_shape_leaves_out_ids_numbers_and_query_values() {
    assert_eq!(
        shape("/office/games/6f1c1a52-5bb0-4f57-9a44-4d7b4c8e2a10/decisions/12?b=1&a=x"),
        "/office/games/{id}/decisions/{n}?a&b"
    );
    assert_eq!(shape("/office/"), "/office/?");
    assert!(!is_page("/office/games/x/board.svg?ply=3"));
    assert!(is_page("/office/floor?event=Open&round=4"));
}

#[actix_web::test]
async fn every_back_office_page_fits_a_tablet_held_either_way_without_a_word_broken_inside_itself()
{
    if !crate::browser::available() {
        return;
    }
    let db = TestDb::new().await;
    let office = Office::start(&db).await;
    crate::web::venue(&office, &db).await;
    // A chief arbiter's token with the fair-play capability sees every arbiter's page and the
    // fair-play desk and report as well.
    let (chief, chief_token) = db
        .store
        .create_token(
            "IA Mikel Larreategi Arana, chief arbiter",
            arbiter::access::Role::Arbiter,
            None,
            "test",
        )
        .await
        .expect("a chief arbiter's token");
    db.store
        .set_fair_play_role(
            chief.token_id,
            Some(arbiter::access::FairPlayRole::ChiefArbiter),
        )
        .await
        .expect("the fair-play capability");
    let mut problems = BTreeMap::new();
    let mut pages = 0;
    for token in [&chief_token, &db.appeals, &db.admin] {
        let (found, visited) = walk(&office, token).await;
        eprintln!("looked at {} pages: {}", visited.len(), visited.join(" "));
        pages += visited.len();
        problems.extend(found);
    }
    assert!(pages >= 15, "the walk found only {pages} pages");
    let report: Vec<String> = problems
        .iter()
        .map(|(page, found)| format!("{page}:\n  {}", found.join("\n  ")))
        .collect();
    assert!(
        problems.is_empty(),
        "{} page views do not fit a tablet:\n{}",
        problems.len(),
        report.join("\n")
    );
    office.stop().await;
}
