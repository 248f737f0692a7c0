//! Bounded readers: a bot can print gigabytes, the runner keeps at most a cap.

use std::collections::VecDeque;

use tokio::io::{AsyncRead, AsyncReadExt};

/// How much one read asks of a bot's pipe.
pub(crate) const CHUNK: usize = 8192;

/// Everything a stream produced up to a cap.
#[derive(Debug, Default)]
pub(crate) struct Capped {
    pub(crate) bytes: Vec<u8>,
    /// The stream had more than the cap; reading stopped there.
    pub(crate) overflow: bool,
}

/// Reads `reader` to EOF, stopping as soon as it yields more than `cap` bytes, not counting
/// one newline that ends the stream: a one-shot reply is measured as a session's reply line
/// is (see [`read_line_capped`]), so one cap means the same reply in both modes. Read errors
/// end the stream (a bot's broken pipe is its own problem).
pub(crate) async fn read_capped(mut reader: impl AsyncRead + Unpin, cap: usize) -> Capped {
    let mut captured = Capped::default();
    let mut chunk = [0u8; CHUNK];
    loop {
        match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => {
                let bytes = &captured.bytes;
                captured.overflow = bytes.len() > cap && bytes.last() != Some(&b'\n');
                return captured;
            }
            Ok(n) => {
                if captured.bytes.len() + n > cap.saturating_add(1) {
                    captured.overflow = true;
                    return captured;
                }
                captured.bytes.extend_from_slice(&chunk[..n]);
            }
        }
    }
}

/// Reads `reader` to EOF and keeps only its last `cap` bytes, so a bot flooding stderr can
/// neither block on a full pipe nor grow the runner's memory.
pub(crate) async fn drain_tail(mut reader: impl AsyncRead + Unpin, cap: usize) -> Vec<u8> {
    let mut tail = VecDeque::with_capacity(cap.min(CHUNK));
    let mut chunk = [0u8; CHUNK];
    loop {
        match reader.read(&mut chunk).await {
            Ok(0) | Err(_) => return tail.into(),
            Ok(n) => {
                let keep = &chunk[..n][n.saturating_sub(cap)..];
                let excess = (tail.len() + keep.len()).saturating_sub(cap);
                tail.drain(..excess);
                tail.extend(keep);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn read_capped_keeps_everything_up_to_the_cap() {
        let captured = read_capped(&b"hello"[..], 5).await;
        assert_eq!(captured.bytes, b"hello");
        assert!(!captured.overflow);
    }

    #[tokio::test]
    async fn read_capped_stops_past_the_cap() {
        let captured = read_capped(&b"hello!"[..], 5).await;
        assert!(captured.overflow);
    }

    #[tokio::test]
    async fn the_newline_that_ends_a_reply_is_not_counted_against_the_cap() {
        let captured = read_capped(&b"hello\n"[..], 5).await;
        assert_eq!(captured.bytes, b"hello\n");
        assert!(!captured.overflow);
        assert!(read_capped(&b"hello!\n"[..], 5).await.overflow);
        assert!(read_capped(&b"hello\n\n"[..], 5).await.overflow);
    }

    #[tokio::test]
    async fn drain_tail_keeps_the_last_bytes() {
        let input: Vec<u8> = (0..20_000u32).map(|i| (i % 251) as u8).collect();
        let tail = drain_tail(&input[..], 100).await;
        assert_eq!(tail, &input[input.len() - 100..]);
    }
}
