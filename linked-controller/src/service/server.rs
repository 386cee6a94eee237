//! The service's network side: TLS with a client certificate per cabinet,
//! every bound of [`Limits`] applied before anything reaches the database.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, broadcast, watch};
use tokio_rustls::TlsAcceptor;

use crate::service::db::Db;
use crate::service::limits::{Cabinets, Limits};
use crate::service::prefix;

/// How long a request over its certificate's limits waits for its answer.
const OVER_LIMIT_DELAY: Duration = Duration::from_millis(100);
use crate::service::protocol::{Answer, FrameError, MAX_REQUEST, Request, decode, encode};

/// What every connection shares.
pub(crate) struct Shared {
    pub(crate) acceptor: TlsAcceptor,
    pub(crate) db: Arc<Db>,
    pub(crate) cabinets: Arc<Cabinets>,
    pub(crate) limits: Limits,
    pub(crate) gate: Arc<crate::service::gate::Gate>,
    pub(crate) connections: Semaphore,
    pub(crate) awards: broadcast::Sender<String>,
}

/// Accept connections until `stop` says so.
pub(crate) async fn accept(listener: TcpListener, shared: Arc<Shared>, mut stop: watch::Receiver<bool>) {
    loop {
        tokio::select! {
            _ = stop.changed() => return,
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let shared = shared.clone();
                    tokio::spawn(async move { connection(stream, peer, shared).await });
                }
                Err(e) => {
                    // Out of descriptors, say: wait, never spin.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                }
            },
        }
    }
}

async fn connection(stream: TcpStream, peer: SocketAddr, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    // Before the handshake: a bounded number at once from one address and
    // in all, each for a bounded time; at the bound the oldest goes
    // (issue 69: a flood of stalled handshakes once turned cabinets away).
    let Ok(mut ticket) = shared.gate.enter(peer.ip()) else { return };
    let tls = tokio::select! {
        accepted = tokio::time::timeout(shared.limits.handshake_timeout, shared.acceptor.accept(stream)) => match accepted {
            Ok(Ok(tls)) => tls,
            Ok(Err(e)) => {
                tracing::info!("{peer}: TLS handshake refused: {}", prefix(&e.to_string(), 200));
                return;
            }
            Err(_) => {
                tracing::info!("{peer}: no TLS handshake within {:?}", shared.limits.handshake_timeout);
                return;
            }
        },
        _ = &mut ticket.evicted => {
            tracing::info!("{peer}: handshake dropped for a newer connection (the oldest pending from its address or of all)");
            return;
        }
    };
    drop(ticket);
    let name = tls.get_ref().1.peer_certificates().and_then(|certs| certs.first()).and_then(crate::service::certs::common_name);
    let Some(name) = name else {
        tracing::warn!("{peer}: a certificate without a cabinet's name");
        return;
    };
    let Ok(_connection) = shared.connections.try_acquire() else {
        tracing::warn!("{peer} ({name}): the service holds its most connections");
        return;
    };
    let Some(_seat) = shared.cabinets.seat(&name) else {
        tracing::warn!("{peer} ({name}): over {} connections of one cabinet, or barred", shared.limits.connections_per_cabinet);
        return;
    };
    let (mut reader, mut writer) = tokio::io::split(tls);
    loop {
        let request = match tokio::time::timeout(shared.limits.idle_timeout, read_frame(&mut reader)).await {
            Err(_) => return,
            Ok(Err(FrameError::Io(_))) => return,
            Ok(Err(e)) => {
                tracing::warn!("{name}: {}", prefix(&e.to_string(), 200));
                let _ = write_frame(&mut writer, &Answer::Refused(prefix(&e.to_string(), 200))).await;
                return;
            }
            Ok(Ok(request)) => request,
        };
        if request == Request::Watch {
            watch_awards(&mut writer, shared.awards.subscribe()).await;
            return;
        }
        let answer = match shared.cabinets.admit(&name, &request) {
            // Barred (issue 69): told why, and the connection closed.
            Err(over) if over.barred => {
                tracing::warn!(cabinet = %name, reason = %over.limit, "barred");
                let _ = write_frame(&mut writer, &Answer::Unavailable(format!("this cabinet is {}", over.limit))).await;
                return;
            }
            // Answered late: a certificate over its limits gets its answers
            // no faster than OVER_LIMIT_DELAY a connection, so a flood
            // costs the service a few answers a second rather than the
            // time honest cabinets need (each connection waits its turn).
            Err(over) => {
                tracing::warn!("{name}: {}", over.limit);
                tokio::time::sleep(OVER_LIMIT_DELAY).await;
                Answer::Unavailable(format!("this cabinet is {}", over.limit))
            }
            Ok(()) => shared.db.serve(&name, request).await,
        };
        if write_frame(&mut writer, &answer).await.is_err() {
            return;
        }
    }
}

/// M-22: every award's pool, as the database notifies it, and a heartbeat
/// each second, until the cabinet goes.
async fn watch_awards(writer: &mut (impl AsyncWrite + Unpin), mut awards: broadcast::Receiver<String>) {
    if write_frame(writer, &Answer::Alive).await.is_err() {
        return;
    }
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    loop {
        let frame = tokio::select! {
            _ = tick.tick() => Answer::Alive,
            pool = awards.recv() => match pool {
                Ok(pool) => Answer::Awarded(pool),
                // Missed some: every pool may have changed; the cabinet
                // fetches its levels on the heartbeat anyway.
                Err(broadcast::error::RecvError::Lagged(_)) => Answer::Alive,
                Err(broadcast::error::RecvError::Closed) => return,
            },
        };
        if write_frame(writer, &frame).await.is_err() {
            return;
        }
    }
}

async fn read_frame(r: &mut (impl AsyncRead + Unpin)) -> Result<Request, FrameError> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len).await?;
    let len = u32::from_be_bytes(len) as usize;
    if len > MAX_REQUEST {
        return Err(FrameError::TooLong(len, MAX_REQUEST));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body).await?;
    decode(&body)
}

async fn write_frame(w: &mut (impl AsyncWrite + Unpin), answer: &Answer) -> Result<(), FrameError> {
    w.write_all(&encode(answer)?).await?;
    w.flush().await?;
    Ok(())
}
