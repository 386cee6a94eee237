//! The dice tables' screens (issue 30): banca francesa, sic bo and
//! peixe-camarão-caranguejo. All draw the same way — the dice falling onto the faces the core committed
//! (every throw of a banca francesa golpe in turn), the cloth with the
//! bet's chips by touch, the shared edit buttons, the result itemised — so
//! the drawing is written once here, generic over a [`DiceScreen`]: each
//! kind's plugin (`banca`, `sic_bo`, `fish_prawn_crab`) says what its cloth holds and how its
//! round reads, and registers its help and recall pages.

pub mod banca;
pub mod craps;
pub mod fish_prawn_crab;
pub mod motion;
pub mod sic_bo;

use bevy::prelude::*;
use game_host::kind::GameKind;
use game_host::round::Phase;
use game_host::session::Session;

use crate::SessionRes;
use crate::layout::Area;
use crate::modes::Mode;
use crate::screens::chips;
use crate::screens::cloth::{self, Cell, ClothText, LitSpot, Place};
use crate::screens::help::HelpOpen;
use crate::screens::reels::Reveal;
use crate::screens::table;
use crate::stage::{self, ArtTextures, Fonts};
use crate::touches::Presses;

/// What a dice kind's screen tells the shared drawing.
pub trait DiceScreen: Send + Sync + 'static {
    type K: GameKind;
    /// The cloth.
    fn cells(s: &Session) -> Vec<Cell>;
    /// The round's throws, in order (the last one settles): three dice
    /// each, or two for craps.
    fn throws(round: &<Self::K as GameKind>::Round) -> Vec<Vec<u8>>;
    /// The layout staked: each spot (as JSON) with its stake.
    fn layout_of_round(round: &<Self::K as GameKind>::Round) -> Vec<(serde_json::Value, u64)>;
    /// The layout on the cloth in idle.
    fn layout(bet: &<Self::K as GameKind>::Bet) -> Vec<(serde_json::Value, u64)>;
    /// The chip value selected.
    fn chip(bet: &<Self::K as GameKind>::Bet) -> u64;
    /// The result announced and itemised, once the last throw rests.
    fn result(s: &Session, round: &<Self::K as GameKind>::Round) -> String;
    /// What a non-decisive throw is called (banca francesa), if any.
    fn undecided(_s: &Session, _throw: &[u8]) -> Option<String> {
        None
    }
    /// Whether the cloth's spot `spot` (as JSON) wins with the round's
    /// dice, staked or not: lit once the last throw rests (issue 45).
    fn wins(_spot: &serde_json::Value, _round: &<Self::K as GameKind>::Round) -> bool {
        false
    }
    /// The art of a die's face 1–6: pips, or a figure die's figure.
    fn face_art(face: u8) -> String {
        format!("dice/die-{face}.svg")
    }
}

/// Where the dice stand and how large (design units): three in a
/// triangle, two side by side.
const DICE: [(f32, f32); 3] = [(230.0, 330.0), (380.0, 330.0), (305.0, 460.0)];
const TWO_DICE: [(f32, f32); 2] = [(230.0, 395.0), (380.0, 395.0)];

/// Where die `k` of a throw of `n` dice stands.
fn die_at(n: usize, k: usize) -> (f32, f32) {
    if n == 2 { TWO_DICE[k.min(1)] } else { DICE[k.min(2)] }
}
const DIE: f32 = 120.0;
const RESULT_AT: (f32, f32) = (50.0, 560.0);

/// The table on screen, per kind.
#[derive(Resource)]
struct DiceTable<D: DiceScreen> {
    key: Option<String>,
    cells: Vec<Place>,
    chips_on: Option<Vec<(serde_json::Value, u64)>>,
    _kind: std::marker::PhantomData<D>,
}

impl<D: DiceScreen> Default for DiceTable<D> {
    fn default() -> Self {
        DiceTable { key: None, cells: Vec::new(), chips_on: None, _kind: std::marker::PhantomData }
    }
}

/// The root of kind `D`'s table.
#[derive(Component)]
struct DiceRoot<D: DiceScreen>(std::marker::PhantomData<D>);
#[derive(Component)]
struct Die(usize);
#[derive(Component, Clone, Copy)]
struct DiceChip;

/// Add the dice screen of kind `D`.
pub fn add<D: DiceScreen>(app: &mut App) {
    app.init_resource::<DiceTable<D>>()
        .add_systems(Update, advance_dice::<D>.run_if(in_state(Mode::Playing)))
        .add_systems(Update, touch_dice::<D>.run_if(in_state(Mode::Idle)))
        .add_systems(Update, (build_dice_table::<D>, show_dice::<D>).chain());
}

fn selected<D: DiceScreen>(s: &Session) -> bool {
    s.rules::<D::K>().is_some()
}

#[allow(clippy::too_many_arguments)]
fn build_dice_table<D: DiceScreen>(
    mut commands: Commands,
    game_screen: Res<crate::screens::GameScreen>,
    session: Res<SessionRes>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<DiceTable<D>>,
    mut roots: Query<(Entity, &mut Visibility), With<DiceRoot<D>>>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    let key = selected::<D>(&s).then(|| format!("{}/{:?}", s.game().id(), s.lang()));
    let Some(visibility) = table::rebuild(&mut commands, game_screen.0, key, &mut table.key, &mut roots) else { return };
    *table = DiceTable { key: table.key.take(), ..default() };
    if table.key.is_none() {
        return;
    }
    let cells = D::cells(&s);
    let mut cells_at = Vec::new();
    commands.spawn((DiceRoot::<D>(std::marker::PhantomData), Transform::default(), visibility)).with_children(|root| {
        let felt = Area::new(60.0, 200.0, 500.0, 340.0);
        let (fx, fy) = felt.centre();
        root.spawn((Sprite::from_color(Color::srgb(0.05, 0.36, 0.18), Vec2::new(felt.w, felt.h)), Transform::from_translation(stage::at(fx, fy, 0.9))));
        for (k, &(x, y)) in DICE.iter().enumerate() {
            root.spawn((Die(k), Sprite { custom_size: Some(Vec2::splat(DIE)), ..default() }, Transform::from_translation(stage::at(x, y, 1.5))));
        }
        cells_at = cloth::spawn_cells(root, &fonts, cells);
        chips::spawn_edit_buttons(root, &fonts, &s);
        cloth::spawn_texts(root, &fonts, RESULT_AT);
    });
    table.cells = cells_at;
}

/// The round's clock on this screen (a round from before it began: at rest).
fn clock(reveal: &Reveal, id: u64, now: f32, n: usize) -> f32 {
    if reveal.round == Some(id) { now - reveal.started } else { motion::shown_by(n) + 10.0 }
}

#[allow(clippy::too_many_arguments, clippy::type_complexity)]
fn show_dice<D: DiceScreen>(
    mut commands: Commands,
    session: Res<SessionRes>,
    reveal: Res<Reveal>,
    time: Res<Time>,
    fonts: Option<Res<Fonts>>,
    mut table: ResMut<DiceTable<D>>,
    mut art: ResMut<ArtTextures>,
    mut images: ResMut<Assets<Image>>,
    roots: Query<Entity, With<DiceRoot<D>>>,
    chips_shown: Query<Entity, With<DiceChip>>,
    mut dice: Query<(&Die, &mut Sprite, &mut Transform, &mut Visibility), Without<LitSpot>>,
    mut lit: Query<(&LitSpot, &mut Visibility), Without<Die>>,
    mut texts: Query<(&ClothText, &mut Text2d)>,
) {
    let Some(fonts) = fonts else { return };
    let Ok(s) = session.0.lock() else { return };
    if table.key.is_none() || !selected::<D>(&s) {
        return;
    }
    let now = time.elapsed_secs();
    let round = s.round::<D::K>();
    let mut rested = false;
    let (throw, result) = match round {
        Some(r) => {
            let throws = D::throws(&r.state);
            let t = clock(&reveal, r.id, now, throws.len());
            let (i, u) = motion::throw_at(t, throws.len());
            // The result is itemised once the round is settled, in the
            // frame the win meter shows its win (issue 75: the total was
            // shown before PRÉMIO).
            let done = t >= motion::shown_by(throws.len()) - motion::REST_S && r.phase != Phase::Presenting;
            let mut text = String::new();
            let before: Vec<String> = throws[..i].iter().filter_map(|th| D::undecided(&s, th)).collect();
            if !before.is_empty() {
                // The latest ten (a long craps series).
                let skip = before.len().saturating_sub(10);
                text = format!("{}{}\n", if skip > 0 { "… " } else { "" }, before[skip..].join("  "));
            }
            if done {
                rested = true;
                text.push_str(&D::result(&s, &r.state));
            } else if i + 1 < throws.len() && u >= motion::lands_at(2) {
                text.push_str(&D::undecided(&s, &throws[i]).unwrap_or_default());
            }
            (throws.get(i).map(|th| (th.clone(), u)), text)
        }
        None => (None, s.t("FAÇAM AS VOSSAS APOSTAS").to_owned()),
    };
    for (die, mut sprite, mut tf, mut vis) in &mut dice {
        let Some((th, u)) = throw.as_ref().filter(|(th, _)| die.0 < th.len()) else {
            vis.set_if_neq(Visibility::Hidden);
            continue;
        };
        vis.set_if_neq(Visibility::Inherited);
        let (face, lift) = motion::die(die.0, *u, th[die.0]);
        let image = art.get(&mut images, &D::face_art(face), 160);
        if sprite.image != image {
            sprite.image = image;
        }
        let (x, y) = die_at(th.len(), die.0);
        tf.translation = stage::at(x, y - lift, 1.5);
    }
    cloth::light_winners(&mut lit, rested, |i| round.is_some_and(|r| table.cells.get(i).is_some_and(|c| D::wins(&c.spot, &r.state))));
    let bet = s.game().bet::<D::K>();
    cloth::show_texts(&mut texts, &s, &result, bet.map(D::chip));
    // The chips: the round's while it is open, else the bet on the cloth.
    let layout = match round.filter(|r| r.phase != Phase::Ended) {
        Some(r) => D::layout_of_round(&r.state),
        None => bet.map(D::layout).unwrap_or_default(),
    };
    let root = roots.single().ok();
    let table = &mut *table;
    cloth::keep_chips(&mut commands, root, &chips_shown, &mut table.chips_on, layout, (&fonts, &mut art, &mut images), &table.cells, DiceChip);
}

/// Tell the host the throws were shown once the last one rests (at once
/// when the player pressed play again, or for a resumed round).
fn advance_dice<D: DiceScreen>(time: Res<Time>, session: Res<SessionRes>, mut reveal: ResMut<Reveal>) {
    let Ok(mut s) = session.0.lock() else { return };
    let Some(r) = s.round::<D::K>().filter(|r| r.phase != Phase::Ended) else { return };
    let length = motion::shown_by(D::throws(&r.state).len());
    if reveal.shown_whole(r.id, r.resumed, r.phase == Phase::Presenting, time.elapsed_secs(), length) {
        s.revealed();
    }
}

/// A touch on a spot places a chip; on an edit button, that edit. The keys
/// mirror the edit buttons.
#[allow(clippy::too_many_arguments)]
fn touch_dice<D: DiceScreen>(keys: Res<ButtonInput<KeyCode>>, presses: Res<Presses>, session: Res<SessionRes>, help: Res<HelpOpen>, table: Res<DiceTable<D>>) {
    if help.0 || table.key.is_none() {
        return;
    }
    let points = presses.on_game().to_vec();
    if points.is_empty() && !cloth::any_edit_key(&keys) {
        return;
    }
    let Ok(mut s) = session.0.lock() else { return };
    if selected::<D>(&s) {
        cloth::touch(&mut s, &keys, &points, &table.cells, "dice");
    }
}
