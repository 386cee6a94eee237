//! `egm-sas-host`: a reference SAS host for labs and the tests (issue 48).
//! It speaks to a cabinet's SAS port over a UART (`--port /dev/ttyS1`, the
//! wake-up bit as MARK parity) or a pty it creates (`--pty`, the wake-up
//! bit in-band: give the cabinet the path it prints), and prints what it
//! sees: meters, events, identity; it disables and enables play, asks for
//! the ROM signature, moves credit by AFT, numbers and redeems tickets as
//! a floor's ticket system (`watch`) and measures the link (`bench`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail};
use clap::{Parser, Subcommand};
use sas::bcd;
use sas::host::{Host, Reply};
use sas::transport::{Line, Pty, SerialLine};

#[derive(Parser)]
#[command(name = "egm-sas-host", version, about = "A reference SAS host: polls a cabinet's meters and events over a UART or a pty")]
struct Args {
    /// A UART to the cabinet's SAS port (19,200 baud, wake-up bit as parity).
    #[arg(long, conflicts_with = "pty")]
    port: Option<PathBuf>,
    /// Create a pty and print the path to give the cabinet (`sas: Some((port: PATH, address: 1, line: Pty))`).
    #[arg(long)]
    pty: bool,
    /// Also write the pty's path into this file (scripts wait on it).
    #[arg(long)]
    path_file: Option<PathBuf>,
    /// The cabinet's SAS address.
    #[arg(long, default_value_t = 1)]
    address: u8,
    /// How long to wait for the cabinet's first answer, seconds.
    #[arg(long, default_value_t = 60)]
    wait: u64,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Poll as a floor does (a general poll every 40 ms, the meters every 5 s) and print every event;
    /// as the floor's ticket system, number cash-out tickets (57/58, with --system-id), set the
    /// secure-enhanced validation ID on 3F (LP 4C, with --validation-id) and check each printed
    /// number against its own computation, and redeem the tickets it saw printed (3D/4D, then
    /// 67/70/71), each once.
    Watch {
        /// The floor's system ID (1-99) for the tickets it numbers (system validation).
        #[arg(long, default_value_t = 1)]
        system_id: u8,
        /// The secure-enhanced validation ID (1-16777215) given to a cabinet that asks (3F).
        #[arg(long)]
        validation_id: Option<u32>,
    },
    /// The machine's meters, and each game's (LP 0F, 1A, 1C, 2F).
    Meters,
    /// Take every pending event and print it.
    Events,
    /// The cabinet's identity and games (LP 1F, 54, A0, 51, 56, 7E).
    Identity,
    /// Disable play (LP 01).
    Disable,
    /// Enable play (LP 02).
    Enable,
    /// The ROM signature from a seed (LP 21; hex, e.g. 1234).
    Signature { seed: String },
    /// Lock the cabinet (LP 74) and transfer cashable credit to it (LP 72, type 00), in cents.
    AftIn {
        cents: u64,
        #[command(flatten)]
        to: AftTo,
    },
    /// Lock the cabinet and transfer credit from it to the host (LP 72, type 80), in cents.
    AftOut {
        cents: u64,
        #[command(flatten)]
        to: AftTo,
    },
    /// Register the cabinet for AFT (LP 73: initialise, then register under its asset number with KEY and POS).
    Register {
        /// The registration key: 40 hex digits.
        #[arg(long)]
        key: String,
        /// The point-of-sale terminal id.
        #[arg(long, default_value_t = 1)]
        pos: u32,
        /// The cabinet's asset number (default: the one its LP 74 reports).
        #[arg(long)]
        asset: Option<u32>,
    },
    /// Be the floor's progressive controller: broadcast a group's levels (global LP 86) every 500 ms.
    Progressive {
        #[arg(long)]
        group: u8,
        /// LEVEL=CENTS for each level, e.g. 1=123456 2=2500000.
        #[arg(required = true)]
        levels: Vec<String>,
        #[arg(long, default_value_t = 30)]
        seconds: u64,
    },
    /// Measure the link: 25 general polls a second with a long poll every fifth, for this many seconds.
    Bench {
        #[arg(long, default_value_t = 60)]
        seconds: u64,
    },
}

fn main() -> Result<()> {
    let args = Args::parse();
    let (line, _pty) = match (&args.port, args.pty) {
        (Some(port), false) => (SerialLine::open(port, Line::Uart)?, None),
        (None, true) => {
            let pty = Pty::open().context("a pty for the cabinet")?;
            println!("pty: {}", pty.path.display());
            if let Some(f) = &args.path_file {
                std::fs::write(f, pty.path.display().to_string()).with_context(|| f.display().to_string())?;
            }
            (SerialLine::marked(pty.master.try_clone()?), Some(pty))
        }
        _ => bail!("give --port PATH (a UART) or --pty"),
    };
    let a = args.address;
    if !(1..=127).contains(&a) {
        bail!("--address {a} is outside 1..=127");
    }
    let mut host = Host::new(line);
    wait_for_cabinet(&mut host, a, Duration::from_secs(args.wait))?;
    match args.command.unwrap_or(Command::Watch { system_id: 1, validation_id: None }) {
        Command::Watch { system_id, validation_id } => watch(&mut host, a, system_id, validation_id),
        Command::Meters => meters(&mut host, a),
        Command::Events => {
            for code in host.drain_exceptions(a)? {
                println!("exception {code:02X} {}", sas::exceptions::describe(code));
            }
            Ok(())
        }
        Command::Identity => identity(&mut host, a),
        Command::Disable => ack(&mut host, a, 0x01, "play disabled (LP 01)"),
        Command::Enable => ack(&mut host, a, 0x02, "play enabled (LP 02)"),
        Command::Signature { seed } => signature(&mut host, a, &seed),
        Command::AftIn { cents, to } => aft(&mut host, a, sas::aft::IN_HOUSE_TO_EGM, cents, &to),
        Command::AftOut { cents, to } => aft(&mut host, a, sas::aft::IN_HOUSE_TO_HOST, cents, &to),
        Command::Register { key, pos, asset } => register(&mut host, a, &key, pos, asset),
        Command::Progressive { group, levels, seconds } => progressive(&mut host, group, &levels, seconds),
        Command::Bench { seconds } => bench(&mut host, a, seconds),
    }
}

/// Sync polls and a current-credits poll until the cabinet answers.
fn wait_for_cabinet(host: &mut Host, a: u8, wait: Duration) -> Result<()> {
    let start = Instant::now();
    while start.elapsed() < wait {
        host.sync()?;
        if checked(&host.read_poll(a, 0x1A)?, a, 0x1A).is_some() {
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    bail!("no answer from address {a} in {} s", wait.as_secs())
}

/// A reply's data when it is a whole frame for `command` whose CRC checks.
fn checked(reply: &Reply, a: u8, command: u8) -> Option<Vec<u8>> {
    let b = reply.bytes();
    (b.len() >= 4 && b[0] == a && b[1] == command && sas::crc::checks(b)).then(|| b[2..b.len() - 2].to_vec())
}

fn read(host: &mut Host, a: u8, command: u8) -> Result<Vec<u8>> {
    ask(host, a, command, |host| host.read_poll(a, command))
}

/// A long poll as a floor sends one: after a sync poll, and asked again
/// (three times in all) when no good reply came in time, as SAS hosts do
/// on a slow or busy line; its reply's data.
fn ask(host: &mut Host, a: u8, command: u8, mut poll: impl FnMut(&mut Host) -> std::io::Result<Reply>) -> Result<Vec<u8>> {
    let mut last = Vec::new();
    for _ in 0..3 {
        host.sync()?;
        let r = poll(host)?;
        if let Some(d) = checked(&r, a, command) {
            return Ok(d);
        }
        last = r.bytes().to_vec();
    }
    bail!("LP {command:02X}: no good reply in 3 tries ({last:02X?})")
}

fn meter_fields(data: &[u8]) -> Result<Vec<u64>> {
    data.chunks(4).map(|c| bcd::decode(c).map_err(|e| anyhow!("{e}"))).collect()
}

fn meters(host: &mut Host, a: u8) -> Result<()> {
    let names = ["canceled credits", "coin in", "coin out", "drop", "jackpot", "games played"];
    for (name, v) in names.iter().zip(meter_fields(&read(host, a, 0x0F)?)?) {
        println!("{name:>18}: {v}");
    }
    println!("{:>18}: {}", "current credits", meter_fields(&read(host, a, 0x1A)?)?.first().copied().unwrap_or(0));
    let c = meter_fields(&read(host, a, 0x1C)?)?;
    println!("{:>18}: {}", "games won", c.get(5).copied().unwrap_or(0));
    println!("{:>18}: {}", "slot door opens", c.get(6).copied().unwrap_or(0));
    println!("{:>18}: {}", "power resets", c.get(7).copied().unwrap_or(0));
    let games = bcd::decode(&read(host, a, 0x51)?).map_err(|e| anyhow!("{e}"))?;
    for game in 1..=games {
        let mut request = vec![0x05];
        request.extend(bcd::encode(game, 2));
        request.extend([0x00, 0x01, 0x05]);
        let d = ask(host, a, 0x2F, |host| host.long_poll(a, 0x2F, &request)).with_context(|| format!("game {game}"))?;
        let m: Vec<u64> = d.get(3..).unwrap_or_default().chunks(5).filter_map(|c| c.get(1..).and_then(|v| bcd::decode(v).ok())).collect();
        println!("game {game:>3}: coin in {}, coin out {}, games played {}", m.first().unwrap_or(&0), m.get(1).unwrap_or(&0), m.get(2).unwrap_or(&0));
    }
    Ok(())
}

fn identity(host: &mut Host, a: u8) -> Result<()> {
    let g = read(host, a, 0x1F)?;
    println!(
        "game ID {}, paytable {}, base {}, denomination code {:02X}",
        ascii(g.get(..2)),
        ascii(g.get(10..16)),
        ascii(g.get(16..20)),
        g.get(5).copied().unwrap_or(0)
    );
    let s = read(host, a, 0x54)?;
    println!("SAS version {}, serial {}", ascii(s.get(1..4)), ascii(s.get(4..)));
    println!("games implemented {}", bcd::decode(&read(host, a, 0x51)?).unwrap_or(0));
    let t = read(host, a, 0x7E)?;
    let b = |i: usize| t.get(i).copied().unwrap_or(0);
    println!("clock {:02X}{:02X}-{:02X}-{:02X} {:02X}:{:02X}:{:02X}", b(2), b(3), b(0), b(1), b(4), b(5), b(6));
    Ok(())
}

fn ascii(b: Option<&[u8]>) -> String {
    String::from_utf8_lossy(b.unwrap_or_default()).into_owned()
}

fn ack(host: &mut Host, a: u8, command: u8, what: &str) -> Result<()> {
    host.sync()?;
    match host.long_poll(a, command, &[])? {
        Reply::Bytes(b) if b == [a] => {
            println!("{what}: acknowledged");
            Ok(())
        }
        other => bail!("LP {command:02X}: {:02X?}", other.bytes()),
    }
}

fn signature(host: &mut Host, a: u8, seed: &str) -> Result<()> {
    let seed = u16::from_str_radix(seed.trim_start_matches("0x"), 16).context("the seed is four hex digits")?;
    host.sync()?;
    if host.long_poll(a, 0x21, &seed.to_le_bytes())?.bytes() != [a] {
        bail!("LP 21 was not acknowledged");
    }
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(120) {
        let r = host.general_poll(a)?;
        host.sync()?;
        if let Some(d) = checked(&r, a, 0x21) {
            println!("ROM signature {:04X} (seed {seed:04X})", u16::from_le_bytes([d[0], d[1]]));
            return Ok(());
        }
        std::thread::sleep(Duration::from_millis(40));
    }
    bail!("no signature in 120 s")
}

/// Where an AFT transfer goes: its id, the asset number it addresses and
/// the registration key it carries.
#[derive(clap::Args, Debug)]
struct AftTo {
    #[arg(long)]
    id: String,
    /// The cabinet's asset number (default: the one its LP 74 reports).
    #[arg(long)]
    asset: Option<u32>,
    /// The registration key (40 hex digits; default none: an in-house transfer).
    #[arg(long)]
    key: Option<String>,
}

/// A registration key written as 40 hex digits.
fn key_of(hex: &str) -> Result<[u8; 20]> {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| hex.get(i..i + 2).and_then(|d| u8::from_str_radix(d, 16).ok()))
        .collect::<Option<_>>()
        .ok_or_else(|| anyhow!("--key {hex:?}: not hex digits"))?;
    bytes.try_into().map_err(|_| anyhow!("--key {hex:?}: a registration key is 40 hex digits (20 bytes)"))
}

/// The cabinet's asset number as its LP 74 interrogation reports it.
fn asset_of(host: &mut Host, a: u8) -> Result<u32> {
    let d = ask(host, a, 0x74, |host| host.long_poll(a, 0x74, &[0xFF, 0x00, 0x00, 0x00]))?;
    let asset = d.get(1..5).and_then(|b| b.try_into().ok()).map(u32::from_le_bytes).ok_or_else(|| anyhow!("LP 74: too short"))?;
    if asset == 0 {
        bail!("the cabinet has no asset number (asset_number in its sas configuration): no AFT transfer is taken");
    }
    Ok(asset)
}

/// LP 73 until the cabinet answers (it answers a change once its core has
/// journaled it): the status.
fn lp73(host: &mut Host, a: u8, request: &[u8]) -> Result<u8> {
    for _ in 0..20 {
        host.sync()?;
        if let Some(d) = checked(&host.variable_poll(a, 0x73, request.get(1..).unwrap_or_default())?, a, 0x73) {
            return d.get(1).copied().ok_or_else(|| anyhow!("LP 73: too short"));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    bail!("LP 73: no good reply in 20 tries")
}

/// LP 73 as a floor registers a cabinet: initialise, then register.
fn register(host: &mut Host, a: u8, key: &str, pos: u32, asset: Option<u32>) -> Result<()> {
    use sas::registration::{request_73, status};
    let key = key_of(key)?;
    let asset = match asset {
        Some(asset) => asset,
        None => asset_of(host, a)?,
    };
    let ready = lp73(host, a, &request_73(0x00, 0, [0; 20], 0))?;
    if ready != status::READY {
        bail!("LP 73 initialise: status {ready:02X}");
    }
    let st = lp73(host, a, &request_73(0x01, asset, key, pos))?;
    println!("AFT registration of asset {asset}: status {st:02X} ({})", if st == status::REGISTERED { "registered" } else { "not registered" });
    if st == status::REGISTERED { Ok(()) } else { Err(anyhow!("the cabinet was not registered")) }
}

/// An AFT transfer as a floor makes one: lock for 10 s, ask, then
/// interrogate until it is no longer pending.
fn aft(host: &mut Host, a: u8, kind: u8, cents: u64, to: &AftTo) -> Result<()> {
    let id = to.id.as_str();
    let key = to.key.as_deref().map(key_of).transpose()?.unwrap_or([0; 20]);
    let asset = match to.asset {
        Some(asset) => asset,
        None => asset_of(host, a)?,
    };
    let lock = ask(host, a, 0x74, |host| host.long_poll(a, 0x74, &[0x00, 0x00, 0x10, 0x00]))?;
    if lock.get(5) != Some(&0x00) {
        bail!("the cabinet did not lock (status {:02X?}): a round is open or play is blocked", lock.get(5));
    }
    // The cabinet answers a new transfer once its core has journaled it
    // (issue 71): no reply before that, and the floor asks again.
    let mut d = None;
    for _ in 0..20 {
        host.sync()?;
        let r = host.variable_poll(a, 0x72, &sas::aft::request_72_keyed(0x00, kind, cents, id, asset, 0x00, key))?;
        d = checked(&r, a, 0x72);
        if d.is_some() {
            break;
        }
    }
    let mut d = d.ok_or_else(|| anyhow!("LP 72: no good reply in 20 tries"))?;
    let start = Instant::now();
    while d.get(2) == Some(&sas::aft::status::PENDING) && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(100));
        d = ask(host, a, 0x72, |host| host.variable_poll(a, 0x72, &[0xFF, 0x00]))?;
    }
    let st = d.get(2).copied().unwrap_or(0xFF);
    let amount = d.get(5..10).and_then(|f| bcd::decode(f).ok()).unwrap_or(0);
    println!("AFT {id}: status {st:02X} ({}), {amount} cents", if st == 0 { "full transfer successful" } else { "not made" });
    if st == 0 { Ok(()) } else { Err(anyhow!("the transfer was not made")) }
}

fn watch(host: &mut Host, a: u8, system_id: u8, validation_id: Option<u32>) -> Result<()> {
    if !(1..=99).contains(&system_id) {
        bail!("--system-id {system_id} is outside 1..=99");
    }
    if let Some(id) = validation_id.filter(|id| !(1..=meters::ticket::SECURE_ENHANCED_MAX).contains(id)) {
        bail!("--validation-id {id} is outside 1..=16777215");
    }
    let mut book = TicketBook { system_id, validation_id, outstanding: BTreeMap::new(), paid: std::collections::BTreeSet::new(), next: 1 };
    let mut meters_at = Instant::now();
    loop {
        let r = host.general_poll(a)?;
        host.sync()?;
        match r.bytes() {
            [0] | [] => {}
            [code] => {
                println!("exception {code:02X} {}", sas::exceptions::describe(*code));
                // A poll that got no good reply (a slow or busy line) is
                // not the end of the floor's system: it carries on, as a
                // floor does, and learns again what it missed.
                if let Err(e) = book.act_on(host, a, *code) {
                    println!("  {e}: carried on");
                }
            }
            frame => println!("reply {frame:02X?}"),
        }
        if meters_at.elapsed() > Duration::from_secs(5) {
            match read(host, a, 0x0F).and_then(|d| meter_fields(&d)) {
                Ok(m) => {
                    let v = |i: usize| m.get(i).copied().unwrap_or(0);
                    println!("meters: coin in {}, coin out {}, drop {}, games {}", v(1), v(2), v(3), v(5));
                }
                Err(e) => println!("meters: {e}: read again in 5 s"),
            }
            meters_at = Instant::now();
        }
        std::thread::sleep(Duration::from_millis(40));
    }
}

/// The floor's ticket system as this reference host keeps it: the
/// tickets printed and not yet redeemed (validation number → cents).
struct TicketBook {
    system_id: u8,
    validation_id: Option<u32>,
    outstanding: BTreeMap<String, u64>,
    /// The tickets it redeemed: never again.
    paid: std::collections::BTreeSet<String>,
    next: u64,
}

/// LP 4D at `index` (00 the current ticket, 01–1F the ones before): the
/// ticket's validation number (system ID first) and amount.
fn printed(host: &mut Host, a: u8, index: u8) -> Result<(String, u64)> {
    let d = ask(host, a, 0x4D, |host| host.long_poll(a, 0x4D, &[index]))?;
    let number = sas::tickets::validation_digits(d.get(9..17).unwrap_or_default()).unwrap_or_default();
    let validation = format!("{:02X}{number}", d.get(24).copied().unwrap_or(0));
    let cents = d.get(17..22).and_then(|f| bcd::decode(f).ok()).unwrap_or(0);
    Ok((validation, cents))
}

impl TicketBook {
    fn act_on(&mut self, host: &mut Host, a: u8, code: u8) -> Result<()> {
        match code {
            // A cash-out waits for its number: LP 57, then LP 58.
            0x57 => {
                let d = read(host, a, 0x57)?;
                let cents = d.get(1..6).and_then(|f| bcd::decode(f).ok()).unwrap_or(0);
                if d.first() != Some(&0x00) {
                    println!("  no cash-out waits (LP 57 type {:02X?})", d.first());
                    return Ok(());
                }
                let number = format!("{:016}", self.next);
                self.next += 1;
                let request = [bcd::encode(u64::from(self.system_id), 1), sas::tickets::validation_bcd(&number)].concat();
                host.sync()?;
                let st = checked(&host.long_poll(a, 0x58, &request)?, a, 0x58).and_then(|d| d.first().copied());
                println!("  numbered the cash-out of {cents} cents {:02}{number} (LP 58 status {st:02X?})", self.system_id);
            }
            // A ticket printed: LP 4D gives its number and amount.
            0x3D => {
                let (validation, cents) = printed(host, a, 0x00)?;
                println!("  ticket printed: {validation}, {cents} cents");
                // Secure-enhanced: the floor recomputes the number from the
                // ID and the sequence the cabinet used (LP 4C read).
                if validation.starts_with("00") && self.validation_id.is_some() {
                    host.sync()?;
                    let d = checked(&host.long_poll(a, 0x4C, &[0; 6])?, a, 0x4C).unwrap_or_default();
                    if let Some((id, sequence)) = sas::validation::parse_4c(&d) {
                        let expected = meters::ticket::secure_enhanced_number(id, sequence);
                        println!(
                            "  secure-enhanced ID {id:06X} sequence {sequence}: {}",
                            if expected == validation { "the number checks" } else { "NOT the number computed" }
                        );
                    }
                }
                self.outstanding.insert(validation, cents);
            }
            // A ticket in a reader: LP 70, then redeem one this floor
            // printed and has not paid, or refuse it (80, [R]).
            0x67 => {
                let d = read(host, a, 0x70)?;
                let validation = sas::tickets::validation_digits(d.get(8..).unwrap_or_default()).unwrap_or_default();
                // The 67 told again (its acknowledgement lost on a busy
                // line) after the ticket was dealt with: nothing in escrow,
                // nothing to answer.
                if d.get(1) != Some(&0x00) || validation.is_empty() {
                    println!("  no ticket in escrow (LP 70 status {:02X?})", d.get(1));
                    return Ok(());
                }
                let find = |book: &TicketBook| book.outstanding.keys().find(|v| sas::tickets::same(v, &validation)).cloned();
                // A ticket it has not seen printed: the cabinet's last
                // tickets (LP 4D, the current one and three before) are
                // read again first, in case a 3D's reading was missed.
                if find(self).is_none() {
                    for index in 0x00..=0x03 {
                        if let Ok((v, cents)) = printed(host, a, index)
                            && !v.ends_with("0000000000000000")
                            && !self.paid.contains(&v)
                        {
                            self.outstanding.entry(v).or_insert(cents);
                        }
                    }
                }
                let known = find(self);
                let (transfer, cents) = match known.and_then(|v| self.outstanding.remove_entry(&v)) {
                    Some((v, cents)) => {
                        self.paid.insert(v);
                        (0x00, cents)
                    }
                    None => (0x80, 0),
                };
                let mut request = vec![transfer];
                request.extend(bcd::encode(cents, 5));
                request.push(0x00);
                request.extend(sas::tickets::validation_bcd(&validation));
                println!("  ticket {validation}: {}", if transfer == 0 { format!("redeem {cents} cents") } else { "unknown or paid: refused".into() });
                host.sync()?;
                host.variable_poll(a, 0x71, &request)?;
            }
            // A level of a SAS progressive group won: LP 85 says which
            // and how much (the controller then resets it).
            0x56 => {
                let d = read(host, a, 0x85)?;
                let cents = d.get(2..7).and_then(|f| bcd::decode(f).ok()).unwrap_or(0);
                println!("  SAS progressive won: group {}, level {}, {cents} cents", d.first().copied().unwrap_or(0), d.get(1).copied().unwrap_or(0));
            }
            // The cabinet cannot number a ticket: give it the validation ID.
            0x3F => match self.validation_id {
                Some(id) => {
                    host.sync()?;
                    let d = checked(&host.long_poll(a, 0x4C, &sas::validation::reply_4c(id, 0))?, a, 0x4C).unwrap_or_default();
                    println!("  set the secure-enhanced validation ID {id:06X}, sequence 0 (LP 4C echo {d:02X?})");
                }
                None => println!("  no --validation-id to give it"),
            },
            // A hand-pay waits for an attendant: LP 1B says what.
            0x51 => {
                let d = read(host, a, 0x1B)?;
                let cents = d.get(2..7).and_then(|f| bcd::decode(f).ok()).unwrap_or(0);
                println!("  hand-pay pending: group {:02X?}, level {:02X?}, {cents} cents", d.first(), d.get(1));
            }
            // The redemption's outcome.
            0x68 => {
                host.sync()?;
                let d = checked(&host.variable_poll(a, 0x71, &[0xFF])?, a, 0x71).unwrap_or_default();
                let cents = d.get(2..7).and_then(|f| bcd::decode(f).ok()).unwrap_or(0);
                println!("  redemption status {:02X?}, {cents} cents", d.get(1));
            }
            _ => {}
        }
        Ok(())
    }
}

/// Global LP 86 broadcasts of `group`'s levels every 500 ms.
fn progressive(host: &mut Host, group: u8, levels: &[String], seconds: u64) -> Result<()> {
    if group == 0 {
        bail!("--group 0 is not a group (1..=255)");
    }
    let mut data = vec![group];
    for l in levels {
        let (level, cents) = l.split_once('=').ok_or_else(|| anyhow!("{l:?}: give LEVEL=CENTS"))?;
        let level: u8 = level.parse().with_context(|| format!("{l:?}: the level"))?;
        if !(1..=sas::progressive::MAX_LEVEL).contains(&level) {
            bail!("{l:?}: level {level} is outside 1..=32");
        }
        data.push(level);
        data.extend(bcd::encode(cents.parse().with_context(|| format!("{l:?}: the cents"))?, 5));
    }
    let len = u8::try_from(data.len()).map_err(|_| anyhow!("too many levels for one LP 86"))?;
    let message = [vec![len], data].concat();
    let start = Instant::now();
    let mut sent = 0u64;
    while start.elapsed() < Duration::from_secs(seconds) {
        host.broadcast(0x86, &message)?;
        sent += 1;
        std::thread::sleep(Duration::from_millis(500));
    }
    println!("group {group}: {sent} broadcasts of {} levels", levels.len());
    Ok(())
}

/// The link under a floor's load: a poll every 40 ms, each fifth a long
/// poll (current credits, the meter group, selected meters in turn).
fn bench(host: &mut Host, a: u8, seconds: u64) -> Result<()> {
    // The measuring thread as far up as the cabinet's port thread, so
    // that what it measures is the cabinet's delay, not its own.
    println!("host's polling thread: {}", sas::scheduling::place_current_thread(sas::scheduling::Cpu::First));
    let games_at = |host: &mut Host| -> Result<u64> { Ok(meter_fields(&read(host, a, 0x0F)?)?.get(5).copied().unwrap_or(0)) };
    let games_before = games_at(host)?;
    let mut starts = Vec::new();
    // (reply start, poll's last byte written, reply's first byte read) on
    // the machine's monotonic clock: the slowest are printed for the
    // cabinet's own times of the same polls to be set beside.
    let mut timed: Vec<(u64, u64, u64)> = Vec::new();
    let (mut gap, mut missed, mut bad, mut polls, mut events) = (0u64, 0u64, 0u64, 0u64, 0u64);
    let start = Instant::now();
    let mut next = Instant::now();
    while start.elapsed() < Duration::from_secs(seconds) {
        let i = polls % 5;
        let (reply, command) = match i {
            1 => (host.read_poll(a, 0x1A)?, Some(0x1A)),
            3 => (host.read_poll(a, 0x0F)?, Some(0x0F)),
            4 => (host.long_poll(a, 0x2F, &[0x05, 0x00, 0x00, 0x00, 0x01, 0x05])?, Some(0x2F)),
            _ => (host.general_poll(a)?, None),
        };
        polls += 1;
        match (&reply, command) {
            (Reply::None, _) => missed += 1,
            (r, Some(c)) if checked(r, a, c).is_none() => bad += 1,
            (r, None) if r.bytes() != [0] => events += 1,
            _ => {}
        }
        if let Some(us) = host.last_reply_start_us {
            starts.push(us);
            timed.push((us, host.last_sent_at_us, host.last_reply_at_us.unwrap_or(0)));
        }
        gap = gap.max(host.last_reply_gap_us);
        if command.is_none() {
            // The event (if any) is taken by the next poll.
            host.sync()?;
        }
        next += Duration::from_millis(40);
        std::thread::sleep(next.saturating_duration_since(Instant::now()));
    }
    let games = games_at(host)?.saturating_sub(games_before);
    starts.sort_unstable();
    let pct = |p: usize| starts.get((starts.len() * p / 100).min(starts.len().saturating_sub(1))).copied().unwrap_or(0);
    println!("polls {polls} in {seconds} s ({} a second), events taken {events}, games the cabinet played meanwhile {games}", polls / seconds.max(1));
    println!("reply start: p50 {} µs, p99 {} µs, max {} µs", pct(50), pct(99), starts.last().copied().unwrap_or(0));
    println!("largest gap inside a reply (as read): {gap} µs");
    timed.sort_unstable_by_key(|t| std::cmp::Reverse(t.0));
    for (us, sent, first) in timed.iter().take(5) {
        println!("slow reply: start {us} µs, poll written at {sent}, reply read at {first} (monotonic µs)");
    }
    println!("missed replies {missed}, bad frames {bad}");
    let ok = missed == 0 && bad == 0 && starts.last().copied().unwrap_or(u64::MAX) < 20_000 && gap < 5_000;
    println!("verdict: {}", if ok { "PASS (every reply started within 20 ms, no gap of 5 ms, none missed)" } else { "FAIL" });
    if ok { Ok(()) } else { Err(anyhow!("the link missed its figures")) }
}
