//! One plugin per screen and menu.

pub mod attract;
pub mod audit;
pub mod baccarat;
pub mod bingo;
pub mod blackjack;
pub mod cards;
pub mod chips;
pub mod cloth;
pub mod deck;
pub mod desafio_ao_casino;
pub mod dice;
pub mod double_up;
pub mod draw_poker;
pub mod fantan;
pub mod game_menu;
pub mod help;
pub mod meters_bar;
pub mod operator_panel;
pub mod pictures;
pub mod poquer_3_cartas;
pub mod recall;
pub mod reels;
pub mod roulette;
pub mod round_picture;
pub mod stud_poker;
pub mod table;
pub mod tilt;
pub mod top_bar;
pub mod top_box;
pub mod wheel;

use bevy::prelude::*;
use bevy_egui::egui;
use game_host::session::Session;
use meters::RoundRecall;

/// A kind's replay of a recalled round (M-15): false when the round is not
/// of its kind.
pub type Replay = fn(&mut egui::Ui, &Session, &RoundRecall) -> bool;

/// What each kind's screen plugin adds to the shared screens (recall in
/// the audit menu), so that those never name a kind of game. (A kind's
/// help page is the host's: `game_host::help`, M-40.)
#[derive(Resource, Default)]
pub struct KindPages {
    pub replay: Vec<Replay>,
}

impl KindPages {
    /// Register a kind's pages (each screen plugin calls this in `build`).
    pub fn register(app: &mut bevy::prelude::App, replay: Replay) {
        app.init_resource::<KindPages>();
        app.world_mut().resource_mut::<KindPages>().replay.push(replay);
    }
}

/// Whether the selected game's own screen is drawn: idle or in play, with
/// no sheet over the game area (help, the game menu). Under a sheet it is
/// hidden, not drawn beneath it (issue 45: nothing a sheet covers is filled
/// again every frame, and no text of it lies under the sheet's).
#[derive(Resource, Default, Clone, Copy, PartialEq, Eq)]
pub struct GameScreen(pub bool);

pub struct GameScreenPlugin;

impl Plugin for GameScreenPlugin {
    fn build(&self, app: &mut App) {
        // Decided again after this frame's touches opened or closed a sheet,
        // before visibility is propagated: what is put away under help is
        // not drawn for the one frame the help first shows.
        app.init_resource::<GameScreen>()
            .add_systems(PreUpdate, decide_whether_the_game_shows)
            .add_systems(PostUpdate, decide_whether_the_game_shows.before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate));
    }
}

pub(crate) fn decide_whether_the_game_shows(
    mode: Option<Res<State<crate::modes::Mode>>>,
    help: Option<Res<help::HelpOpen>>,
    menu: Option<Res<game_menu::GameMenuOpen>>,
    mut shown: ResMut<GameScreen>,
) {
    use crate::modes::Mode;
    let playing = mode.is_some_and(|m| matches!(m.get(), Mode::Idle | Mode::Playing));
    let sheet = help.is_some_and(|h| h.0) || menu.is_some_and(|m| m.0);
    shown.set_if_neq(GameScreen(playing && !sheet));
}

/// The space the always-visible panels take (heights in points), measured
/// by the HUD each frame; screens draw in the rest of the window.
#[derive(Resource, Clone, Copy, Debug)]
pub struct HudLayout {
    pub top: f32,
    pub bottom: f32,
}

impl Default for HudLayout {
    fn default() -> Self {
        HudLayout { top: 40.0, bottom: 110.0 }
    }
}

/// A root `Ui` covering the window.
pub fn viewport_ui(ctx: &egui::Context, id: &'static str) -> egui::Ui {
    egui::Ui::new(ctx.clone(), id.into(), egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(ctx.viewport_rect()))
}

/// A root `Ui` for a screen: the window less the HUD's panels.
pub fn screen_ui(ctx: &egui::Context, id: &'static str, hud: &HudLayout) -> egui::Ui {
    let r = ctx.viewport_rect();
    let rect = egui::Rect::from_min_max(egui::pos2(r.min.x, r.min.y + hud.top), egui::pos2(r.max.x, (r.max.y - hud.bottom).max(r.min.y + hud.top + 1.0)));
    egui::Ui::new(ctx.clone(), id.into(), egui::UiBuilder::new().layer_id(egui::LayerId::background()).max_rect(rect))
}
