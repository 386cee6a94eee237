//! The touch button deck (issue 29): the art kit's buttons along the
//! bottom of the screen as cabinets lay them out (`layout::DeckButton`),
//! each with its label in the player's language, drawn enabled exactly
//! when the host's `Session::controls` says the button does something now.
//! A touch (or a click) on an enabled button does what its physical key
//! does: both go through [`act`].

use bevy::prelude::*;
use game_host::command::Command;
use game_host::kind::BetControl;
use game_host::session::{Controls, Lang, Session};

use crate::SessionRes;
use crate::layout::DeckButton;
use crate::modes::Mode;
use crate::screens::game_menu::GameMenuOpen;
use crate::screens::help::HelpOpen;
use crate::screens::reels::Reveal;
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

pub struct ButtonDeckPlugin;

impl Plugin for ButtonDeckPlugin {
    fn build(&self, app: &mut App) {
        app.add_systems(Update, (spawn_deck, show_controls, press_deck).chain());
    }
}

#[derive(Component)]
struct Deck;
#[derive(Component)]
struct DeckSprite(DeckButton);
#[derive(Component)]
struct DeckLabel(DeckButton);

/// Whether the button is enabled by the host's controls.
pub fn enabled(c: &Controls, b: DeckButton) -> bool {
    match b {
        DeckButton::Help => c.help,
        DeckButton::Menu => c.game_menu,
        DeckButton::Language => c.language,
        DeckButton::Denomination => c.denomination,
        DeckButton::CashOut => c.cash_out,
        DeckButton::Lines => c.lines,
        DeckButton::BetMinus => c.bet_down,
        DeckButton::BetPlus => c.bet_up,
        DeckButton::MaxBet => c.max_bet,
        DeckButton::Play => c.play,
    }
}

/// The button's label in the player's language.
pub fn label(s: &Session, b: DeckButton) -> String {
    match b {
        DeckButton::Help => s.t("AJUDA").into(),
        DeckButton::Menu => s.t("JOGOS").into(),
        // The language button names the language it changes to.
        DeckButton::Language => s.t("ENGLISH").into(),
        DeckButton::Denomination => s.machine().config().currency.format(s.denom()),
        DeckButton::CashOut => s.t("COBRAR").into(),
        DeckButton::Lines => s.t("LINHAS").into(),
        DeckButton::BetMinus => s.t("APOSTA −").into(),
        DeckButton::BetPlus => s.t("APOSTA +").into(),
        DeckButton::MaxBet => s.t("APOSTA MÁX.").into(),
        DeckButton::Play if s.double_up_offered() => s.t("RECEBER|take win").into(),
        DeckButton::Play => s.t("JOGAR").into(),
    }
}

/// What a button (touched, or its physical key) does: one command to the
/// host, or a screen of the cabinet's own (help, the game menu).
pub fn act(b: DeckButton, s: &mut Session, mode: Mode, next: &mut NextState<Mode>, reveal: &mut Reveal, help: &mut HelpOpen, menu: &mut GameMenuOpen) {
    match b {
        // One overlay at a time: opening one closes the other.
        DeckButton::Help => {
            help.0 = !help.0;
            menu.0 = false;
        }
        DeckButton::Menu => {
            menu.0 = !menu.0;
            help.0 = false;
        }
        DeckButton::Language => {
            let lang = if s.lang() == Lang::Pt { Lang::En } else { Lang::Pt };
            s.command(Command::Language { lang });
        }
        DeckButton::Denomination => {
            s.command(Command::CycleDenomination);
        }
        DeckButton::CashOut => {
            s.command(Command::CashOut);
        }
        DeckButton::Lines => {
            s.command(Command::CycleBet { control: BetControl::Lines });
        }
        DeckButton::BetMinus => {
            s.command(Command::AdjustBet { control: BetControl::Amount, delta: -1 });
        }
        DeckButton::BetPlus => {
            s.command(Command::AdjustBet { control: BetControl::Amount, delta: 1 });
        }
        DeckButton::MaxBet => {
            s.command(Command::MaxBet);
        }
        DeckButton::Play => match mode {
            Mode::Attract | Mode::Idle => {
                if s.command(Command::Play) {
                    next.set(Mode::Playing);
                }
            }
            Mode::Playing => {
                // Reels: show the result at once; draw poker: draw.
                reveal.hurry = true;
                s.command(Command::Play);
            }
            Mode::Recall | Mode::Audit | Mode::Tilt => {}
        },
    }
}

fn spawn_deck(mut commands: Commands, fonts: Option<Res<Fonts>>, mut art: ResMut<ArtTextures>, mut images: ResMut<Assets<Image>>, mut done: Local<bool>) {
    let Some(fonts) = fonts else { return };
    if *done {
        return;
    }
    *done = true;
    commands.spawn((Deck, Transform::default(), Visibility::Hidden)).with_children(|deck| {
        for b in DeckButton::ALL {
            let a = b.area();
            let (cx, cy) = a.centre();
            let image = art.get(&mut images, b.art(), 160);
            deck.spawn((
                DeckSprite(b),
                Sprite { image, custom_size: Some(Vec2::new(a.w, a.h)), ..default() },
                Transform::from_translation(stage::at(cx, cy, 10.0)),
            ));
            let (lx, ly) = b.label_centre();
            deck.spawn((DeckLabel(b), stage::text(&fonts, "", 24.0, Color::WHITE), Transform::from_translation(stage::at(lx, ly, 10.0))));
        }
    });
}

const DISABLED: Color = Color::srgba(0.32, 0.32, 0.36, 0.85);
const LABEL: Color = Color::srgb(1.0, 0.93, 0.7);
const LABEL_DISABLED: Color = Color::srgb(0.42, 0.42, 0.46);

/// The deck on the player's screens, each button lit or dimmed as the host
/// allows it, its label in the player's language.
#[allow(clippy::type_complexity)]
fn show_controls(
    session: Res<SessionRes>,
    mode: Res<State<Mode>>,
    mut deck: Query<&mut Visibility, With<Deck>>,
    mut sprites: Query<(&DeckSprite, &mut Sprite)>,
    mut labels: Query<(&DeckLabel, &mut Text2d, &mut TextColor)>,
) {
    let Ok(s) = session.0.lock() else { return };
    let shown = matches!(mode.get(), Mode::Attract | Mode::Idle | Mode::Playing);
    for mut v in &mut deck {
        v.set_if_neq(if shown { Visibility::Inherited } else { Visibility::Hidden });
    }
    if !shown {
        return;
    }
    let controls = s.controls();
    for (b, mut sprite) in &mut sprites {
        let colour = if enabled(&controls, b.0) { Color::WHITE } else { DISABLED };
        if sprite.color != colour {
            sprite.color = colour;
        }
    }
    for (b, mut text, mut colour) in &mut labels {
        let want = label(&s, b.0);
        if text.0 != want {
            text.0 = want;
        }
        colour.set_if_neq(TextColor(if enabled(&controls, b.0) { LABEL } else { LABEL_DISABLED }));
    }
}

/// A touch or a click on an enabled button of the deck (not one on an
/// operator's window above it: `touches` routes them).
fn press_deck(
    presses: Res<Presses>,
    session: Res<SessionRes>,
    mode: Res<State<Mode>>,
    mut next: ResMut<NextState<Mode>>,
    mut reveal: ResMut<Reveal>,
    mut help: ResMut<HelpOpen>,
    mut menu: ResMut<GameMenuOpen>,
) {
    let points = presses.on_deck();
    if points.is_empty() || !matches!(mode.get(), Mode::Attract | Mode::Idle | Mode::Playing) {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    for &d in points {
        let Some(b) = DeckButton::at(d.x, d.y) else { continue };
        if !enabled(&s.controls(), b) {
            info!("deck: {b:?} pressed while disabled");
            continue;
        }
        info!("deck: {b:?}");
        s.touch();
        act(b, &mut s, *mode.get(), &mut next, &mut reveal, &mut help, &mut menu);
    }
}
