//! The art kit (issue 29): vector art under `assets/art` (made by
//! `tools/make-art.py`; `assets/README.md` says how a studio replaces it),
//! embedded in the program (`build.rs`) and rasterised by `resvg` into
//! pixels at the size the screen draws them. At boot every file the hosted
//! games need is rasterised once: one that is missing, does not parse, or
//! draws nothing is named in a clear error, which the cabinet shows
//! instead of play — never drawn blank. The card screens draw their cards
//! with it (`screens::cards::CardArtPlugin`); the other screens are issue
//! 29's next steps.

use resvg::{tiny_skia, usvg};

mod files {
    include!(concat!(env!("OUT_DIR"), "/art_files.rs"));
}

/// What is wrong with a file of the art kit.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ArtError {
    #[error("art kit: assets/art/{0} is missing (assets/README.md lists what each game needs)")]
    Missing(String),
    #[error("art kit: assets/art/{file} is not an SVG the cabinet can draw: {detail}")]
    Broken { file: String, detail: String },
    #[error("art kit: assets/art/{0} draws nothing (every pixel is transparent)")]
    Blank(String),
}

/// The SVG source of `name` (a path under `assets/art`).
pub fn source(name: &str) -> Result<&'static [u8], ArtError> {
    files::FILES.iter().find(|(n, _)| *n == name).map(|(_, bytes)| *bytes).ok_or_else(|| ArtError::Missing(name.to_owned()))
}

/// `data` (the file `name`) rasterised `height` pixels high, its width in
/// proportion, as straight (not premultiplied) RGBA.
pub fn rasterise_bytes(name: &str, data: &[u8], height: u32) -> Result<(u32, u32, Vec<u8>), ArtError> {
    let broken = |detail: String| ArtError::Broken { file: name.to_owned(), detail };
    let tree = usvg::Tree::from_data(data, &usvg::Options::default()).map_err(|e| broken(e.to_string()))?;
    let size = tree.size();
    if size.height() <= 0.0 || size.width() <= 0.0 {
        return Err(broken("it has no size".into()));
    }
    let scale = height.max(1) as f32 / size.height();
    let width = (size.width() * scale).ceil().max(1.0) as u32;
    let mut pixmap = tiny_skia::Pixmap::new(width, height.max(1)).ok_or_else(|| broken(format!("{width}×{height} pixels cannot be drawn")))?;
    resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
    if pixmap.pixels().iter().all(|p| p.alpha() == 0) {
        return Err(ArtError::Blank(name.to_owned()));
    }
    let rgba = pixmap.pixels().iter().flat_map(|p| {
        let c = p.demultiply();
        [c.red(), c.green(), c.blue(), c.alpha()]
    });
    Ok((width, height.max(1), rgba.collect()))
}

/// The art kit's file `name` as a texture `height` pixels high.
pub fn image(name: &str, height: u32) -> Result<bevy::prelude::Image, ArtError> {
    use bevy::asset::RenderAssetUsages;
    use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
    let (w, h, rgba) = rasterise_bytes(name, source(name)?, height)?;
    Ok(bevy::prelude::Image::new(
        Extent3d { width: w, height: h, depth_or_array_layers: 1 },
        TextureDimension::D2,
        rgba,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    ))
}

/// The files every cabinet draws with: the card deck, the chips, the
/// tables, the wheels, bingo, the reel frame, the backgrounds, the button
/// deck.
pub fn shared() -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for suit in ["S", "H", "D", "C"] {
        for rank in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"] {
            names.push(format!("cards/{rank}{suit}.svg"));
        }
    }
    names.extend(["cards/back.svg", "cards/joker.svg"].map(String::from));
    names.extend([1, 5, 10, 25, 100, 500].map(|v| format!("chips/chip-{v}.svg")));
    names.extend(
        [
            "table/felt.svg",
            "roulette/wheel-single-zero.svg",
            "roulette/wheel-double-zero.svg",
            "roulette/wheel-american-37.svg",
            "roulette/ball.svg",
            "wheels/boule.svg",
            "wheels/roda-da-sorte.svg",
            "dice/die-1.svg",
            "dice/die-2.svg",
            "dice/die-3.svg",
            "dice/die-4.svg",
            "dice/die-5.svg",
            "dice/die-6.svg",
            "dice/figure-1.svg",
            "dice/figure-2.svg",
            "dice/figure-3.svg",
            "dice/figure-4.svg",
            "dice/figure-5.svg",
            "dice/figure-6.svg",
            "bingo/ball.svg",
            "bingo/card.svg",
            "reels/frame.svg",
            "backgrounds/game.svg",
            "backgrounds/attract.svg",
        ]
        .map(String::from),
    );
    names.extend(
        ["play", "bet-minus", "bet-plus", "lines", "max-bet", "cash-out", "help", "menu", "denomination", "language"].map(|b| format!("buttons/{b}.svg")),
    );
    names
}

/// A game's own files: its logo and, for a reel game, a picture of each
/// of its symbols (by the symbol's id in the paytable).
pub fn for_game(id: &str, symbols: &[String]) -> Vec<String> {
    std::iter::once(format!("games/{id}/logo.svg")).chain(symbols.iter().map(|s| format!("games/{id}/symbols/{s}.svg"))).collect()
}

/// Every problem of the files in `names`, each rasterised once at a small
/// size to know it draws.
pub fn check(names: &[String]) -> Vec<ArtError> {
    names.iter().filter_map(|n| source(n).and_then(|data| rasterise_bytes(n, data, 32)).err()).collect()
}

/// Every file the cabinet needs for the games `session` hosts.
pub fn needed(session: &game_host::session::Session) -> Vec<String> {
    let mut names = shared();
    for g in session.games() {
        let symbols: Vec<String> =
            g.rules::<game_host::kinds::reels::Reels>().map(|r| r.game.symbols.iter().map(|s| s.id.clone()).collect()).unwrap_or_default();
        // An RTP variant wears its game's art (issue 50).
        names.extend(for_game(g.variant_family(), &symbols));
    }
    names
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    /// The reel games' symbols, read from the shipped paytables (an
    /// independent reading of the RON: every `(id: "…", name: …)` entry of
    /// the `symbols` list).
    fn shipped_reel_games() -> Vec<(String, Vec<String>)> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/paytables");
        let mut games = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            // An RTP variant wears its game's art (issue 50).
            if !text.contains("ReelPaytable(") || text.contains("variant_of: Some(") {
                continue;
            }
            let id = text.split("id: \"").nth(1).unwrap().split('"').next().unwrap().to_owned();
            let symbols_block = text.split("symbols: [").nth(1).unwrap().split("],").next().unwrap();
            let symbols = symbols_block.split("(id: \"").skip(1).map(|s| s.split('"').next().unwrap().to_owned()).collect();
            games.push((id, symbols));
        }
        games.sort();
        games
    }

    #[test]
    fn every_file_the_shipped_games_need_is_there_and_draws() {
        let games = shipped_reel_games();
        assert_eq!(
            games.iter().map(|g| g.0.as_str()).collect::<Vec<_>>(),
            ["classic-sevens", "dragao-1024", "floresta-243", "minas-cascata", "ocean-treasure"]
        );
        let mut names = shared();
        for (id, symbols) in &games {
            assert!(!symbols.is_empty());
            names.extend(for_game(id, symbols));
        }
        // The roulette, dice, baccarat, blackjack, bingo, wheel and fantan games: their logos.
        for id in [
            "roleta-francesa",
            "roleta-americana",
            "banca-francesa",
            "cussec",
            "bacara",
            "bacara-6-sem-comissao",
            "bacara-macau",
            "bacara-ez",
            "bacara-empate-9",
            "blackjack",
            "blackjack-classico",
            "bingo-90",
            "bingo-80",
            "bingo-75",
            "bingo-30",
            "boule",
            "roda-da-sorte",
            "fantan",
            "peixe-camarao-caranguejo",
            "poquer-3-cartas",
            "desafio-ao-casino",
            "craps",
        ] {
            names.extend(for_game(id, &[]));
        }
        // 54 cards, 6 chips, 12 tables, wheels and scenes, 6 + 6 dice, 10 buttons, 27 logos, 7 + 11 + 11 + 10 + 10 symbols.
        assert_eq!(names.len(), 54 + 6 + 12 + 6 + 6 + 10 + 27 + 7 + 11 + 11 + 10 + 10);
        assert_eq!(check(&names), Vec::<ArtError>::new());
        // Every file is drawn in the kit's own colours, not blank: a card
        // face at its screen size has ink and paper.
        let (w, h, rgba) = rasterise_bytes("cards/QH.svg", source("cards/QH.svg").unwrap(), 350).unwrap();
        assert_eq!((w, h), (250, 350));
        let opaque = rgba.chunks(4).filter(|p| p[3] == 255).count();
        let red = rgba.chunks(4).filter(|p| p[0] > 150 && p[1] < 60 && p[2] < 80).count();
        assert!(opaque > 80_000 && red > 1_000, "{opaque} opaque, {red} red pixels");
    }

    #[test]
    fn a_missing_broken_or_blank_file_is_named() {
        assert_eq!(source("games/nothing/logo.svg"), Err(ArtError::Missing("games/nothing/logo.svg".into())));
        assert_eq!(ArtError::Missing("x.svg".into()).to_string(), "art kit: assets/art/x.svg is missing (assets/README.md lists what each game needs)");
        let broken = rasterise_bytes("cards/AS.svg", b"<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'><rect", 32);
        assert!(matches!(&broken, Err(ArtError::Broken { file, .. }) if file == "cards/AS.svg"), "{broken:?}");
        let blank = rasterise_bytes("cards/AS.svg", br#"<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>"#, 32);
        assert_eq!(blank, Err(ArtError::Blank("cards/AS.svg".into())));
        assert_eq!(check(&["cards/AS.svg".into(), "cards/ZZ.svg".into()]), vec![ArtError::Missing("cards/ZZ.svg".into())]);
    }
}
