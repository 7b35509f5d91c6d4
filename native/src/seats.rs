//! Fixed-size containers that keep a game's state inside its ``Game``: one block of memory a
//! game, no vector of its own to chase (a batch of a thousand games steps each game's state from
//! memory; each heap vector was one more cache miss, and each step allocated a few).

use std::ops::{Deref, DerefMut};

use crate::spec::N_KINDS;

/// The most seats a game has.
pub const MAX_SEATS: usize = 4;

/// Up to ``N`` values in place, used as a slice of its ``len`` values (a vector of fixed room).
#[derive(Clone, Copy)]
pub struct Inline<T: Copy + Default, const N: usize> {
    len: u8,
    v: [T; N],
}

impl<T: Copy + Default, const N: usize> Inline<T, N> {
    /// ``len`` copies of ``x``.
    pub fn filled(x: T, len: usize) -> Self {
        assert!(len <= N && N <= u8::MAX as usize, "{len} values in room for {N}");
        let mut v = [T::default(); N];
        v[..len].fill(x);
        Inline { len: len as u8, v }
    }

    pub fn push(&mut self, x: T) {
        let len = self.len as usize;
        assert!(len < N, "no room for a value past {N}");
        self.v[len] = x;
        self.len += 1;
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl<T: Copy + Default, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Inline { len: 0, v: [T::default(); N] }
    }
}

impl<T: Copy + Default, const N: usize> Deref for Inline<T, N> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.v[..self.len as usize]
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for Inline<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.v[..self.len as usize]
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for Inline<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut out = Inline::default();
        for x in iter {
            out.push(x);
        }
        out
    }
}

impl<T: Copy + Default + std::fmt::Debug, const N: usize> std::fmt::Debug for Inline<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self[..].fmt(f)
    }
}

/// Equal to a vector (or anything a slice of ``T`` is) of the same values.
impl<T: Copy + Default + PartialEq, U: AsRef<[T]>, const N: usize> PartialEq<U> for Inline<T, N> {
    fn eq(&self, other: &U) -> bool {
        self[..] == *other.as_ref()
    }
}

impl<T: Copy + Default, const N: usize> IntoIterator for Inline<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;
    fn into_iter(self) -> Self::IntoIter {
        self.v.into_iter().take(self.len as usize)
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Inline<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a mut Inline<T, N> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

/// Tile kinds, each at most once (the kinds a seat may discard, a hand's waits).
pub type Kinds = Inline<u8, N_KINDS>;

/// One value a seat: ``Seats::new(x, n)`` as ``vec![x; n]``.
pub type Seats<T> = Inline<T, MAX_SEATS>;

impl<T: Copy + Default> Seats<T> {
    pub fn new(x: T, n: usize) -> Self {
        Inline::filled(x, n)
    }
}
