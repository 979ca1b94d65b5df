//! The network's inner loops, written plainly so the compiler vectorises them, and compiled
//! twice on x86-64: for the baseline target and with AVX2 and FMA, the copy chosen once at run
//! time by the processor's features (`is_x86_feature_detected!`), so the binary stays
//! portable: no build flag ties it to this CPU. At this size a library's per-call overhead
//! would dominate (burn issue 4811: a 1,000-parameter MLP more than 10× slower than a plain
//! loop), so the loops are hand-written, as Stockfish's NNUE does; `tests/gradients.rs`
//! checks them against finite differences.

use crate::layout::{crelu, Trunk, B1, B2, B3, H1, H2, H3, W1, W2, W3};

/// Whether the AVX2 copies run (cached by the standard library after the first call).
#[inline(always)]
fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// Define `$name` as a dispatcher over a baseline copy and an AVX2 copy of the same body.
macro_rules! dispatch {
    ($(#[$doc:meta])* pub fn $name:ident($($arg:ident : $ty:ty),*) $(-> $ret:ty)? $body:block) => {
        $(#[$doc])*
        pub fn $name($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn body($($arg: $ty),*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2,fma")]
            unsafe fn fast($($arg: $ty),*) $(-> $ret)? { body($($arg),*) }
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the processor has AVX2 and FMA (checked just above).
                return unsafe { fast($($arg),*) };
            }
            body($($arg),*)
        }
    };
}

/// Lanes of [`dot`]'s partial sums.
const LANES: usize = 8;

/// The dot product of two equal-length slices, summed in [`LANES`] independent partial sums:
/// a single running sum cannot be vectorised (the compiler keeps the order of float
/// additions), eight can, and they fill one AVX2 register.
#[inline(always)]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let (a_chunks, b_chunks) = (a.chunks_exact(LANES), b.chunks_exact(LANES));
    let tail: f32 = a_chunks.remainder().iter().zip(b_chunks.remainder()).map(|(x, y)| x * y).sum();
    let mut lanes = [0.0f32; LANES];
    for (x, y) in a_chunks.zip(b_chunks) {
        for l in 0..LANES {
            lanes[l] += x[l] * y[l];
        }
    }
    lanes.iter().sum::<f32>() + tail
}

dispatch! {
    /// `acc` = b1 + Σ W1[f] over `features` (with repeats), from the flat parameters.
    pub fn accumulate(params: &[f32], features: &[u16], acc: &mut [f32; H1]) {
        acc.copy_from_slice(&params[B1..B1 + H1]);
        for &f in features {
            let at = W1 + f as usize * H1;
            let row: &[f32; H1] = params[at..at + H1].try_into().expect("a W1 row");
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }
}

dispatch! {
    /// `acc` += `sign` × `row`.
    pub fn add_row(acc: &mut [f32; H1], row: &[f32], sign: f32) {
        let row: &[f32; H1] = row.try_into().expect("a W1 row");
        for (a, w) in acc.iter_mut().zip(row) {
            *a += sign * w;
        }
    }
}

dispatch! {
    /// `acc` += `row` when `add`, else `acc` −= `row`, both wrapping: exact modulo 2¹⁶ in
    /// any order (the 16-bit first layer of [`crate::quantised`]).
    pub fn add_row_i16(acc: &mut [i16; H1], row: &[i16], add: bool) {
        let row: &[i16; H1] = row.try_into().expect("a W1 row");
        if add {
            for (a, w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(*w);
            }
        } else {
            for (a, w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_sub(*w);
            }
        }
    }
}

dispatch! {
    /// The dense layers above the accumulator `t.acc`: fills `t.z2`, `t.z3` and `t.h3`.
    pub fn dense_layers(params: &[f32], t: &mut Trunk) {
        let mut h1 = [0.0f32; H1];
        for (h, a) in h1.iter_mut().zip(&t.acc) {
            *h = crelu(*a);
        }
        for k in 0..H2 {
            t.z2[k] = dot(&params[W2 + k * H1..W2 + (k + 1) * H1], &h1) + params[B2 + k];
        }
        let mut h2 = [0.0f32; H2];
        for (h, z) in h2.iter_mut().zip(&t.z2) {
            *h = crelu(*z);
        }
        for k in 0..H3 {
            t.z3[k] = dot(&params[W3 + k * H2..W3 + (k + 1) * H2], &h2) + params[B3 + k];
            t.h3[k] = crelu(t.z3[k]);
        }
    }
}

dispatch! {
    /// `grad[at..at + n]` += `scale` × `x` (a row of a sparse gradient).
    pub fn axpy(grad: &mut [f32], x: &[f32], scale: f32) {
        for (g, v) in grad.iter_mut().zip(x) {
            *g += scale * v;
        }
    }
}
