//! The wheels' screens (issue 72): boule and the wheel of fortune. Both
//! draw the same way — a ring of places that turns at least three times and
//! slows onto the place the core committed, under the pointer at the top
//! (RS-8); the cloth of chances with the bet's chips by touch
//! (`screens::cloth`), the shared edit buttons, the result itemised — so the
//! drawing is written once here, generic over a [`WheelScreen`]: each kind's
//! plugin (`boule`, `roda`) says what its wheel and its cloth hold and how
//! its round reads, and registers its recall page.

pub mod boule;
pub mod motion;
pub mod roda;

use std::f32::consts::TAU;

use bevy::prelude::*;
use game_host::kind::GameKind;
use game_host::round::Phase;
use game_host::session::Session;

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::chips;
use crate::screens::cloth::{self, Cell, ClothText, LitSpot, Place};
use crate::screens::help::HelpOpen;
use crate::screens::reels::Reveal;
use crate::screens::table;
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

/// What a wheel kind's screen tells the shared drawing.
pub trait WheelScreen: Send + Sync + 'static {
    type K: GameKind;
    /// The wheel's art (`tools/make-art.py`): its places drawn clockwise
    /// from the top, place 0 under the pointer at rest, in the order of the
    /// game's wheel in game-core.
    const ART: &'static str;
    /// How many places the wheel has.
    const PLACES: usize;
    /// The cloth.
    fn cells(s: &Session) -> Vec<Cell>;
    /// The place the round's wheel stops at (an index of `places`).
    fn stop(round: &<Self::K as GameKind>::Round) -> usize;
    /// The layout staked: each spot (as JSON) with its stake.
    fn layout_of_round(round: &<Self::K as GameKind>::Round) -> Vec<(serde_json::Value, u64)>;
    /// The layout on the cloth in idle.
    fn layout(bet: &<Self::K as GameKind>::Bet) -> Vec<(serde_json::Value, u64)>;
    /// The chip value selected.
    fn chip(bet: &<Self::K as GameKind>::Bet) -> u64;
    /// The result announced and itemised, once the wheel rests.
    fn result(s: &Session, round: &<Self::K as GameKind>::Round) -> String;
    /// Whether the cloth's spot `spot` (as JSON) wins with the round's
    /// stop, staked or not: lit once the wheel rests.
    fn wins(spot: &serde_json::Value, round: &<Self::K as GameKind>::Round) -> bool;
}

/// Where the wheel stands (its centre) and its radius, in design units.
const CENTRE: (f32, f32) = (340.0, 350.0);
const RADIUS: f32 = 210.0;
const RESULT_AT: (f32, f32) = (40.0, 590.0);

/// The table on screen, per kind.
#[derive(Resource)]
struct WheelTable<W: WheelScreen> {
    key: Option<String>,
    places: usize,
    cells: Vec<Place>,
    chips_on: Option<Vec<(serde_json::Value, u64)>>,
    _kind: std::marker::PhantomData<W>,
}

impl<W: WheelScreen> Default for WheelTable<W> {
    fn default() -> Self {
        WheelTable { key: None, places: 0, cells: Vec::new(), chips_on: None, _kind: std::marker::PhantomData }
    }
}

/// The root of kind `W`'s table.
#[derive(Component)]
struct WheelRoot<W: WheelScreen>(std::marker::PhantomData<W>);
/// The ring of places, turned as a whole.
#[derive(Component)]
struct Ring;
#[derive(Component, Clone, Copy)]
struct WheelChip;

/// Add the wheel screen of kind `W`.
pub fn add<W: WheelScreen>(app: &mut App) {
    app.init_resource::<WheelTable<W>>()
        .add_systems(Update, advance_wheel::<W>.run_if(in_state(Mode::Playing)))
        .add_systems(Update, touch_cloth::<W>.run_if(in_state(Mode::Idle)))
        .add_systems(Update, (build_wheel_table::<W>, show_wheel::<W>).chain());
}

fn selected<W: WheelScreen>(s: &Session) -> bool {
    s.rules::<W::K>().is_some()
}

#[allow(clippy::too_many_arguments)]
fn build_wheel_table<W: WheelScreen>(
    mut commands: Commands,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<WheelTable<W>>,
    mut roots: Query<(Entity, &mut Visibility), With<WheelRoot<W>>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = selected::<W>(&s).then(|| format!("{}/{:?}", s.game().id(), s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.key, &mut roots) else { return };
    *table = WheelTable { key: table.key.take(), ..default() };
    if table.key.is_none() {
        return;
    }
    table.places = W::PLACES;
    let image = art.get(&mut images, W::ART, (2.0 * RADIUS * 1.5) as u32);
    let mut cells_at = Vec::new();
    commands.spawn((WheelRoot::<W>(std::marker::PhantomData), Transform::default(), visibility)).with_children(|root| {
        // The wheel, turned as a whole.
        root.spawn((
            Ring,
            Sprite { image, custom_size: Some(Vec2::splat(2.0 * RADIUS)), ..default() },
            Transform::from_translation(stage::at(CENTRE.0, CENTRE.1, 1.0)),
        ));
        // The pointer, fixed over the top of the ring.
        root.spawn((
            Sprite::from_color(table::GOLD, Vec2::splat(30.0)),
            Transform::from_translation(stage::at(CENTRE.0, CENTRE.1 - RADIUS - 4.0, 1.3)).with_rotation(Quat::from_rotation_z(TAU / 8.0)),
        ));
        cells_at = cloth::spawn_cells(root, &fonts, W::cells(&s));
        chips::spawn_edit_buttons(root, &fonts, &s);
        cloth::spawn_texts(root, &fonts, RESULT_AT);
    });
    table.cells = cells_at;
}

/// The round's clock on this screen (a round from before it began: at rest).
fn clock(reveal: &Reveal, id: u64, now: f32) -> f32 {
    if reveal.round == Some(id) { now - reveal.started } else { motion::shown_by() + 10.0 }
}

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn show_wheel<W: WheelScreen>(
    mut commands: Commands,
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<WheelTable<W>>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    roots: Query<Entity, With<WheelRoot<W>>>,
    chips_shown: Query<Entity, With<WheelChip>>,
    mut ring: Query<&mut Transform, With<Ring>>,
    mut lit: Query<(&LitSpot, &mut Visibility)>,
    mut texts: Query<(&ClothText, &mut Text2d)>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    if table.key.is_none() || !selected::<W>(&s) {
        return;
    }
    let round = s.round::<W::K>();
    let mut rested = false;
    let (turned, result) = match round {
        Some(r) => {
            let t = clock(&reveal, r.id, time.elapsed_secs());
            let stop = W::stop(&r.state);
            // The result is itemised once the round is settled, in the
            // frame the win meter shows its win (issue 75).
            rested = motion::at_rest(t) && r.phase != Phase::Presenting;
            (motion::turned(t, stop, table.places), if rested { W::result(&s, &r.state) } else { String::new() })
        }
        None => (0.0, s.t("FAÇAM AS VOSSAS APOSTAS").to_owned()),
    };
    for mut tf in &mut ring {
        let want = Quat::from_rotation_z(turned * TAU);
        if tf.rotation != want {
            tf.rotation = want;
        }
    }
    cloth::light_winners(&mut lit, rested, |i| round.is_some_and(|r| table.cells.get(i).is_some_and(|c| W::wins(&c.spot, &r.state))));
    let bet = s.game().bet::<W::K>();
    cloth::show_texts(&mut texts, &s, &result, bet.map(W::chip));
    // The chips: the round's while it is open, else the bet on the cloth.
    let layout = match round.filter(|r| r.phase != Phase::Ended) {
        Some(r) => W::layout_of_round(&r.state),
        None => bet.map(W::layout).unwrap_or_default(),
    };
    let root = roots.single().ok();
    let table = &mut *table;
    cloth::keep_chips(&mut commands, root, &chips_shown, &mut table.chips_on, layout, (&fonts, &mut art, &mut images), &table.cells, WheelChip);
}

/// Tell the host the spin was shown once the wheel rests (at once when the
/// player pressed play again, or for a resumed round).
fn advance_wheel<W: WheelScreen>(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(r) = s.round::<W::K>().filter(|r| r.phase != Phase::Ended) else { return };
    if reveal.shown_whole(r.id, r.resumed, r.phase == Phase::Presenting, time.elapsed_secs(), motion::shown_by()) {
        s.revealed();
    }
}

/// A touch on a place of the cloth puts a chip there; on an edit button,
/// that edit. The keys mirror the edit buttons.
fn touch_cloth<W: WheelScreen>(
    keys: Res<ButtonInput<KeyCode>>,
    presses: Res<Presses>,
    session: Res<SessionRes>,
    help: Res<HelpOpen>,
    table: Res<WheelTable<W>>,
) {
    if help.0 || table.key.is_none() {
        return;
    }
    let points = presses.on_game().to_vec();
    if points.is_empty() && !cloth::any_edit_key(&keys) {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    if selected::<W>(&s) {
        cloth::touch(&mut s, &keys, &points, &table.cells, "wheel");
    }
}
