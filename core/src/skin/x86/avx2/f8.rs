//! [`F8`]: eight `f32` lanes in an AVX register, as a type that only exists where AVX2 was
//! detected, so that its operations are safe functions.
//!
//! The operations are `#[inline(always)]` functions without a `target_feature` of their own:
//! inlined into the loop (which is compiled with AVX2), they become single instructions.
//! (`#[inline(always)]` cannot be combined with `#[target_feature]` on stable Rust, and
//! `#[inline]` alone left some of the loop's steps as calls passing registers through memory.)

#[cfg(target_arch = "x86")]
use core::arch::x86::*;
#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;
use core::ops::{Add, Div, Mul, Sub};

use safe_arch::m128;

cpufeatures::new!(cpu_avx2, "avx2");

/// Proof that the processor has AVX2 (and the operating system saves its registers).
#[derive(Clone, Copy)]
pub(super) struct Avx2(());

impl Avx2 {
    /// `Some` where the processor has AVX2 (CPUID and XGETBV, through `cpufeatures`; the
    /// answer is cached).
    #[inline]
    pub(super) fn detect() -> Option<Self> {
        cpu_avx2::get().then_some(Self(()))
    }

    /// `v` in every lane.
    #[inline(always)]
    pub(super) fn splat(self, v: f32) -> F8 {
        // SAFETY (every `unsafe` block of this module): the instruction needs AVX or AVX2,
        // which an `Avx2` (needed, directly or through an `F8`, for every operation) proves.
        F8(unsafe { _mm256_set1_ps(v) })
    }

    /// Eight lanes from an array.
    #[inline(always)]
    pub(super) fn load(self, a: [f32; 8]) -> F8 {
        F8(bytemuck::cast(a))
    }

    /// `lo` in lanes 0–3, `hi` in lanes 4–7.
    #[inline(always)]
    pub(super) fn halves(self, lo: m128, hi: m128) -> F8 {
        F8(unsafe { _mm256_set_m128(hi.0, lo.0) })
    }
}

/// Eight `f32` lanes (an AVX register); only an [`Avx2`] makes one.
#[derive(Clone, Copy)]
pub(super) struct F8(__m256);

impl F8 {
    /// The lanes as an array.
    #[inline(always)]
    pub(super) fn to_array(self) -> [f32; 8] {
        bytemuck::cast(self.0)
    }

    /// Lanes 0–3 and lanes 4–7.
    #[inline(always)]
    pub(super) fn split(self) -> ([f32; 4], [f32; 4]) {
        let [a, b, c, d, e, f, g, h] = self.to_array();
        ([a, b, c, d], [e, f, g, h])
    }

    /// `[a₀ b₀ a₁ b₁ | a₄ b₄ a₅ b₅]` (`vunpcklps`).
    #[inline(always)]
    pub(super) fn unpack_lo(self, b: F8) -> F8 {
        F8(unsafe { _mm256_unpacklo_ps(self.0, b.0) })
    }

    /// `[a₂ b₂ a₃ b₃ | a₆ b₆ a₇ b₇]` (`vunpckhps`).
    #[inline(always)]
    pub(super) fn unpack_hi(self, b: F8) -> F8 {
        F8(unsafe { _mm256_unpackhi_ps(self.0, b.0) })
    }

    /// Within each half, two lanes of `self` then two of `b`, picked by `S` (`vshufps`).
    #[inline(always)]
    pub(super) fn shuffle<const S: i32>(self, b: F8) -> F8 {
        F8(unsafe { _mm256_shuffle_ps::<S>(self.0, b.0) })
    }

    /// Halves picked from `self` and `b` by `S` (`vperm2f128`): `0x20` the two low halves,
    /// `0x31` the two high ones.
    #[inline(always)]
    pub(super) fn halves_of<const S: i32>(self, b: F8) -> F8 {
        F8(unsafe { _mm256_permute2f128_ps::<S>(self.0, b.0) })
    }

    /// All ones where `self ≤ b`, zeros elsewhere (and where either is NaN).
    #[inline(always)]
    pub(super) fn le_mask(self, b: F8) -> F8 {
        F8(unsafe { _mm256_cmp_ps::<_CMP_LE_OQ>(self.0, b.0) })
    }

    /// All ones where `self < b`, zeros elsewhere (and where either is NaN).
    #[inline(always)]
    pub(super) fn lt_mask(self, b: F8) -> F8 {
        F8(unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, b.0) })
    }

    /// `−self` where `mask` is all ones, `self` where it is zero (the sign bit flipped).
    #[inline(always)]
    pub(super) fn negate_where(self, mask: F8) -> F8 {
        F8(unsafe { _mm256_xor_ps(self.0, _mm256_and_ps(mask.0, _mm256_set1_ps(-0.0))) })
    }

    /// `self` where `mask` is zero, zero where it is all ones.
    #[inline(always)]
    pub(super) fn unless(self, mask: F8) -> F8 {
        F8(unsafe { _mm256_andnot_ps(mask.0, self.0) })
    }

    /// `magic − (bits >> 1)` on the lanes' bits, as `f32` (the first guess of the fast
    /// inverse square root).
    #[inline(always)]
    pub(super) fn inv_sqrt_guess(self, magic: i32) -> F8 {
        F8(unsafe {
            let bits = _mm256_srli_epi32::<1>(_mm256_castps_si256(self.0));
            _mm256_castsi256_ps(_mm256_sub_epi32(_mm256_set1_epi32(magic), bits))
        })
    }
}

impl Add for F8 {
    type Output = F8;
    #[inline(always)]
    fn add(self, b: F8) -> F8 {
        F8(unsafe { _mm256_add_ps(self.0, b.0) })
    }
}

impl Sub for F8 {
    type Output = F8;
    #[inline(always)]
    fn sub(self, b: F8) -> F8 {
        F8(unsafe { _mm256_sub_ps(self.0, b.0) })
    }
}

impl Mul for F8 {
    type Output = F8;
    #[inline(always)]
    fn mul(self, b: F8) -> F8 {
        F8(unsafe { _mm256_mul_ps(self.0, b.0) })
    }
}

impl Div for F8 {
    type Output = F8;
    #[inline(always)]
    fn div(self, b: F8) -> F8 {
        F8(unsafe { _mm256_div_ps(self.0, b.0) })
    }
}
