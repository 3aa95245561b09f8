//! The speed of a game from its `TimeControl` tag, as lichess classifies it.

/// A game's speed, as lichess classifies it from `TimeControl`: the estimated duration
/// `base + 40 × increment` seconds is under 30 (ultraBullet), under 180 (bullet), under 480
/// (blitz), under 1500 (rapid), else classical; `-` (no clock) or days per move is
/// correspondence.
///
/// ```
/// use chessbits::pgn::Speed;
/// assert_eq!(Speed::from_time_control("180+2"), Some(Speed::Blitz));
/// assert_eq!(Speed::from_time_control("15+0"), Some(Speed::UltraBullet));
/// assert_eq!(Speed::from_time_control("-"), Some(Speed::Correspondence));
/// assert_eq!(Speed::from_time_control("?"), None);
/// assert_eq!(Speed::Rapid.name(), "rapid");
/// assert_eq!(Speed::from_name("Blitz"), Some(Speed::Blitz));
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Speed {
    /// Under 30 seconds estimated.
    UltraBullet = 1,
    /// 30 seconds to under 3 minutes.
    Bullet = 2,
    /// 3 to under 8 minutes.
    Blitz = 3,
    /// 8 to under 25 minutes.
    Rapid = 4,
    /// 25 minutes or more.
    Classical = 5,
    /// No clock (`-`) or days per move.
    Correspondence = 6,
}

impl Speed {
    /// Every speed, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::UltraBullet,
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
    ];

    /// The speed of a `TimeControl` tag value (`base+increment` in seconds, `-`, or `1/days`
    /// in seconds per move); `None` when it says nothing (`?`, empty, malformed).
    pub fn from_time_control(text: &str) -> Option<Speed> {
        let text = text.trim();
        if text == "-" {
            return Some(Speed::Correspondence);
        }
        if let Some((moves, seconds)) = text.split_once('/') {
            // "1/259200": a move per so many seconds (days): correspondence.
            let (_, seconds): (u64, u64) = (moves.parse().ok()?, seconds.parse().ok()?);
            return (seconds >= 86_400).then_some(Speed::Correspondence);
        }
        let (base, increment) = match text.split_once('+') {
            Some((base, increment)) => (base.parse::<u64>().ok()?, increment.parse::<u64>().ok()?),
            None => (text.parse::<u64>().ok()?, 0),
        };
        let estimate = base.saturating_add(increment.saturating_mul(40));
        Some(match estimate {
            0..=29 => Speed::UltraBullet,
            30..=179 => Speed::Bullet,
            180..=479 => Speed::Blitz,
            480..=1499 => Speed::Rapid,
            _ => Speed::Classical,
        })
    }

    /// The lichess name: `ultraBullet`, `bullet`, `blitz`, `rapid`, `classical`,
    /// `correspondence`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::UltraBullet => "ultraBullet",
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }

    /// The speed of a lichess name (as [`name`](Self::name) writes it, case ignored).
    pub fn from_name(name: &str) -> Option<Speed> {
        Speed::ALL
            .into_iter()
            .find(|speed| speed.name().eq_ignore_ascii_case(name.trim()))
    }

    /// A one-byte code for storage: 1..=6 in [`ALL`](Self::ALL)'s order, 0 for an unknown
    /// speed (`None`).
    ///
    /// ```
    /// use chessbits::pgn::Speed;
    /// assert_eq!(Speed::code(Some(Speed::Blitz)), 3);
    /// assert_eq!(Speed::from_code(Speed::code(None)), None);
    /// assert_eq!(Speed::from_code(6), Some(Speed::Correspondence));
    /// ```
    pub fn code(speed: Option<Speed>) -> u8 {
        speed.map_or(0, |speed| speed as u8)
    }

    /// The speed of a [`code`](Self::code) (`None` for 0 and codes above 6).
    pub fn from_code(code: u8) -> Option<Speed> {
        Speed::ALL.into_iter().find(|speed| *speed as u8 == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lichess_boundaries() {
        let cases = [
            ("29+0", Some(Speed::UltraBullet)),
            ("30+0", Some(Speed::Bullet)),
            ("0+1", Some(Speed::Bullet)),
            ("120+1", Some(Speed::Bullet)),
            ("179", Some(Speed::Bullet)),
            ("180+0", Some(Speed::Blitz)),
            ("300+3", Some(Speed::Blitz)),
            ("479+0", Some(Speed::Blitz)),
            ("480+0", Some(Speed::Rapid)),
            ("600+5", Some(Speed::Rapid)),
            ("1499+0", Some(Speed::Rapid)),
            ("1500+0", Some(Speed::Classical)),
            ("1/259200", Some(Speed::Correspondence)),
            ("1/60", None),
            (" - ", Some(Speed::Correspondence)),
            ("", None),
            ("abc", None),
            ("18446744073709551615+18446744073709551615", Some(Speed::Classical)),
        ];
        for (text, speed) in cases {
            assert_eq!(Speed::from_time_control(text), speed, "{text:?}");
        }
        for speed in Speed::ALL {
            assert_eq!(Speed::from_name(speed.name()), Some(speed));
            assert_eq!(Speed::from_code(Speed::code(Some(speed))), Some(speed));
        }
        assert_eq!(Speed::from_name("hyperbullet"), None);
        assert_eq!(Speed::from_code(7), None);
    }
}
