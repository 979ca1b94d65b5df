//! The look every figure of the workspace shares (the study's pictures, a training run's
//! curves, the ladder's ratings): the shipped font and the series colours.
//!
//! Text is drawn with the DejaVu Sans font shipped in `eval/assets/`, so no system font
//! library is needed.

use plotters::style::{register_font, FontStyle, RGBColor};
use std::sync::Once;

/// The family name figures draw their text in (the shipped font, once [`register_shipped_font`]
/// has run).
pub const FONT_FAMILY: &str = "sans-serif";

/// Make [`FONT_FAMILY`] the shipped DejaVu Sans font; call before drawing any text (cheap
/// after the first call).
pub fn register_shipped_font() {
    static FONT: Once = Once::new();
    FONT.call_once(|| {
        // The bytes are a valid TrueType font shipped with the crate.
        let _ = register_font(FONT_FAMILY, FontStyle::Normal, include_bytes!("../assets/DejaVuSans.ttf"));
    });
}

/// The first series colour.
pub const BLUE: RGBColor = RGBColor(31, 119, 180);
/// The second series colour.
pub const ORANGE: RGBColor = RGBColor(255, 127, 14);
/// The third series colour.
pub const GREEN: RGBColor = RGBColor(44, 160, 44);
/// The fourth series colour.
pub const RED: RGBColor = RGBColor(214, 39, 40);
/// The fifth series colour.
pub const PURPLE: RGBColor = RGBColor(148, 103, 189);
/// The sixth series colour.
pub const BROWN: RGBColor = RGBColor(140, 86, 75);
/// The seventh series colour.
pub const PINK: RGBColor = RGBColor(227, 119, 194);
/// The eighth series colour.
pub const CYAN: RGBColor = RGBColor(23, 190, 207);

/// Line colours of series, in the order series take them.
pub const COLOURS: [RGBColor; 8] = [BLUE, ORANGE, GREEN, RED, PURPLE, BROWN, PINK, CYAN];
