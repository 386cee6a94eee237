//! Sounds (issue 5): a thud as each reel stops, a tick for each card
//! dealt or drawn, an arpeggio for a win, a two-tone alarm for a door, a
//! tilt or a hand-pay. The sounds are made by the project
//! (`tools/make-sounds.py`) and built into the program. They follow what
//! the screens show and never decide anything; each is logged, so a lab
//! (and the window tests) can see which played. A cabinet without an
//! audio device plays nothing and runs on. The floor's system may turn
//! them off, or the game's own off (SAS LP 03/05, issue 71): what it
//! silences is logged as silenced, and an alarm is still heard unless
//! every sound is off.

use std::sync::Arc;

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings};
use bevy::prelude::*;

use crate::SessionRes;
use crate::modes::Mode;
use crate::screens::reels::Reveal;
use crate::screens::reels::motion::Motion;
use game_host::floor::Sounds as FloorSounds;
use game_host::kinds::reels::Reels;
use game_host::round::Phase;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sound {
    ReelStop,
    Card,
    Win,
    Alarm,
}

impl Sound {
    fn name(self) -> &'static str {
        match self {
            Sound::ReelStop => "reel-stop",
            Sound::Card => "card",
            Sound::Win => "win",
            Sound::Alarm => "alarm",
        }
    }
}

#[derive(Resource)]
struct Sounds {
    reel_stop: Handle<AudioSource>,
    card: Handle<AudioSource>,
    win: Handle<AudioSource>,
    alarm: Handle<AudioSource>,
}

/// What the sound systems last heard: reels stopped, cards shown, rounds
/// finished, so that each event sounds once.
#[derive(Resource, Default)]
struct Heard {
    reels_stopped: (Option<u64>, usize, usize),
    cards: (Option<u64>, bool),
    history: usize,
}

/// A sound entity's time to live (without an audio device it never ends).
#[derive(Component)]
struct SoundTtl(Timer);

pub struct SoundPlugin;

impl Plugin for SoundPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<Heard>()
            .add_systems(Startup, load_sounds)
            .add_systems(Update, (sound_reel_stops, sound_cards, expire_sounds))
            // After the screens: a round still paced out holds its chime.
            .add_systems(PostUpdate, sound_wins)
            .add_systems(OnEnter(Mode::Tilt), sound_alarm)
            .add_systems(Update, sound_alarm.run_if(in_state(Mode::Tilt).and_then(bevy::time::common_conditions::on_real_timer(crate::pacing::ALARM_EVERY))));
    }
}

fn wav(assets: &mut Assets<AudioSource>, bytes: &'static [u8]) -> Handle<AudioSource> {
    assets.add(AudioSource { bytes: Arc::from(bytes) })
}

fn load_sounds(mut commands: Commands, mut assets: ResMut<Assets<AudioSource>>) {
    commands.insert_resource(Sounds {
        reel_stop: wav(&mut assets, include_bytes!("../../assets/sounds/reel-stop.wav")),
        card: wav(&mut assets, include_bytes!("../../assets/sounds/card.wav")),
        win: wav(&mut assets, include_bytes!("../../assets/sounds/win.wav")),
        alarm: wav(&mut assets, include_bytes!("../../assets/sounds/alarm.wav")),
    });
}

/// Whether the floor lets `sound` be heard: every sound (LP 04), none
/// (LP 03), or none of the game's own, an alarm still heard (LP 05).
fn floor_allows(session: &game_host::session::Session, sound: Sound) -> bool {
    match session.floor().map_or(FloorSounds::All, |f| f.sounds()) {
        FloorSounds::All => true,
        FloorSounds::None => false,
        FloorSounds::NoGameSounds => sound == Sound::Alarm,
    }
}

fn play(commands: &mut Commands, sounds: &Sounds, sound: Sound, allowed: bool) {
    if !allowed {
        info!("sound silenced by the floor (SAS): {}", sound.name());
        return;
    }
    let handle = match sound {
        Sound::ReelStop => &sounds.reel_stop,
        Sound::Card => &sounds.card,
        Sound::Win => &sounds.win,
        Sound::Alarm => &sounds.alarm,
    };
    info!("sound: {}", sound.name());
    commands.spawn((AudioPlayer::new(handle.clone()), PlaybackSettings::DESPAWN, SoundTtl(Timer::from_seconds(5.0, TimerMode::Once))));
}

/// Each reel as it stops, in every spin of the round (base and free games).
fn sound_reel_stops(mut commands: Commands, sounds: Res<Sounds>, session: Res<SessionRes>, reveal: Res<Reveal>, time: Res<Time>, mut heard: ResMut<Heard>) {
    let Ok(s) = session.0.lock() else { return };
    let Some(r) = s.round::<Reels>().filter(|r| r.phase != Phase::Ended) else { return };
    let Some(game) = s.rules::<Reels>().map(|g| &g.game) else { return };
    // Only once the screen follows this round: the reveal of the last one
    // would have every reel landed at once, as the spin starts (issue 45:
    // autoplay sounded five stops at the start and none at the landing).
    if reveal.round != Some(r.id) {
        return;
    }
    let reels = r.state.base.stops.len();
    let elapsed = time.elapsed_secs() - reveal.started;
    let spin = if reveal.spin == 0 { &r.state.base } else { r.state.free_spins.get(reveal.spin - 1).unwrap_or(&r.state.base) };
    let motion = Motion::new(game, spin);
    let stopped = if r.phase != Phase::Presenting || reveal.hurry { reels } else { (0..reels).filter(|&i| motion.landed(i, elapsed)).count() };
    let (round, spin, before) = heard.reels_stopped;
    let before = if round == Some(r.id) && spin == reveal.spin { before } else { 0 };
    for _ in before..stopped {
        play(&mut commands, &sounds, Sound::ReelStop, floor_allows(&s, Sound::ReelStop));
    }
    heard.reels_stopped = (Some(r.id), reveal.spin, stopped.max(before));
}

/// A round the screen shows at once (cards): its deal, and its decision
/// (the draw, or the dealer's hand turned over).
fn sound_cards(mut commands: Commands, sounds: Res<Sounds>, session: Res<SessionRes>, mut heard: ResMut<Heard>) {
    let Ok(s) = session.0.lock() else { return };
    if s.game().animated() {
        return;
    }
    let Some(r) = s.round_info() else { return };
    let (id, drawn) = (r.id, r.phase != Phase::Decisions);
    if heard.cards.0 != Some(id) || (drawn && !heard.cards.1) {
        play(&mut commands, &sounds, Sound::Card, floor_allows(&s, Sound::Card));
        heard.cards = (Some(id), drawn);
    }
}

/// A round that ends with a win, once the screen has shown all of it
/// (issue 45: bingo's chime sounded at JOGAR, before its balls fell).
fn sound_wins(mut commands: Commands, sounds: Res<Sounds>, session: Res<SessionRes>, paced: Res<crate::pacing::PacedOut>, mut heard: ResMut<Heard>) {
    if paced.0 {
        return;
    }
    let Ok(s) = session.0.lock() else { return };
    if s.history().len() > heard.history && s.history().last().is_some_and(|h| h.win > 0) {
        play(&mut commands, &sounds, Sound::Win, floor_allows(&s, Sound::Win));
    }
    heard.history = s.history().len();
}

/// A door, a tilt or a hand-pay: on entering the tilt screen, and every
/// few seconds while it lasts.
fn sound_alarm(mut commands: Commands, sounds: Res<Sounds>, session: Res<SessionRes>) {
    // A session that cannot be read does not silence the alarm.
    let allowed = match session.0.lock() {
        Ok(s) => floor_allows(&s, Sound::Alarm),
        Err(_) => true,
    };
    play(&mut commands, &sounds, Sound::Alarm, allowed);
}

fn expire_sounds(mut commands: Commands, time: Res<Time>, mut q: Query<(Entity, &mut SoundTtl)>) {
    for (e, mut ttl) in &mut q {
        if ttl.0.tick(time.delta()).is_finished() {
            commands.entity(e).despawn();
        }
    }
}
