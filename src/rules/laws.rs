//! Article numbering by edition of the FIDE Laws of Chess.
//!
//! Rulings cite articles in the edition that governs the game. The engine works with the
//! numbering of the Laws effective 1 January 2023; the 2018 edition numbers Article 9.2
//! differently: 2023 9.2.1 = 2018 9.2.1.1, 2023 9.2.2 = 2018 9.2.1.2 and 2023 9.2.3
//! (with its sub-articles) = 2018 9.2.2. Everything else cited here is numbered alike.

use crate::game::event::LawsEdition;

/// The number of an article (given in 2023 numbering) in `edition`.
///
/// Several articles may be given separated by `", "`; each is translated.
pub fn article_in(edition: LawsEdition, article_2023: &str) -> String {
    match edition {
        LawsEdition::Y2023 => article_2023.to_string(),
        LawsEdition::Y2018 => article_2023
            .split(", ")
            .map(translate_to_2018)
            .collect::<Vec<_>>()
            .join(", "),
    }
}

fn translate_to_2018(article: &str) -> String {
    if article == "9.2.1" {
        return "9.2.1.1".to_string();
    }
    if article == "9.2.2" {
        return "9.2.1.2".to_string();
    }
    if let Some(rest) = article.strip_prefix("9.2.3") {
        return format!("9.2.2{rest}");
    }
    article.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_2018_edition_renumbers_article_9_2() {
        assert_eq!(article_in(LawsEdition::Y2018, "9.2.1"), "9.2.1.1");
        assert_eq!(article_in(LawsEdition::Y2018, "9.2.2"), "9.2.1.2");
        assert_eq!(article_in(LawsEdition::Y2018, "9.2.3.1"), "9.2.2.1");
        assert_eq!(
            article_in(LawsEdition::Y2018, "9.2.2, 9.5.2"),
            "9.2.1.2, 9.5.2"
        );
        assert_eq!(article_in(LawsEdition::Y2023, "9.2.2"), "9.2.2");
        assert_eq!(article_in(LawsEdition::Y2018, "9.3.1"), "9.3.1");
    }
}
