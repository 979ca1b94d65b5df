//! A vector of `Copy` values held inside its owner up to a fixed capacity, so that cloning a
//! game state copies its bytes and allocates nothing; past that capacity it moves to the heap
//! and works on as a `Vec` (an uncommon position stays legal, it only clones slower).

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::hash::{Hash, Hasher};
use std::mem::MaybeUninit;
use std::ops::{Deref, DerefMut};

/// Up to `N` values of `T` in place, more on the heap. Dereferences to a slice.
pub struct InlineVec<T: Copy, const N: usize> {
    repr: Repr<T, N>,
}

enum Repr<T: Copy, const N: usize> {
    /// The first `len` items are initialised.
    Inline {
        len: u32,
        items: [MaybeUninit<T>; N],
    },
    Heap(Vec<T>),
}

impl<T: Copy, const N: usize> InlineVec<T, N> {
    /// An empty vector (in place).
    pub const fn new() -> Self {
        InlineVec { repr: Repr::Inline { len: 0, items: [MaybeUninit::uninit(); N] } }
    }

    /// Whether the items are still in place (nothing on the heap).
    pub fn is_inline(&self) -> bool {
        matches!(self.repr, Repr::Inline { .. })
    }

    /// Bytes a clone allocates: none in place, the items' bytes once on the heap.
    pub fn heap_bytes(&self) -> usize {
        if self.is_inline() {
            0
        } else {
            std::mem::size_of_val(&**self)
        }
    }

    /// Append an item, moving to the heap when the capacity in place is full.
    pub fn push(&mut self, item: T) {
        match &mut self.repr {
            Repr::Inline { len, items } if (*len as usize) < N => {
                items[*len as usize] = MaybeUninit::new(item);
                *len += 1;
            }
            Repr::Inline { .. } => {
                let mut heap = Vec::with_capacity(N * 2);
                heap.extend_from_slice(self);
                heap.push(item);
                self.repr = Repr::Heap(heap);
            }
            Repr::Heap(v) => v.push(item),
        }
    }

    /// Remove and return the last item.
    pub fn pop(&mut self) -> Option<T> {
        match &mut self.repr {
            Repr::Inline { len, items } => {
                if *len == 0 {
                    return None;
                }
                *len -= 1;
                // SAFETY: items below the old length are initialised.
                Some(unsafe { items[*len as usize].assume_init() })
            }
            Repr::Heap(v) => v.pop(),
        }
    }

    /// Shorten to `n` items (no effect when already shorter).
    pub fn truncate(&mut self, n: usize) {
        match &mut self.repr {
            Repr::Inline { len, .. } => *len = (*len).min(n as u32),
            Repr::Heap(v) => v.truncate(n),
        }
    }

    /// Remove every item.
    pub fn clear(&mut self) {
        self.truncate(0);
    }
}

impl<T: Copy, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy, const N: usize> Clone for InlineVec<T, N> {
    fn clone(&self) -> Self {
        let repr = match &self.repr {
            // A copy of the whole array: one block move, no allocation.
            Repr::Inline { len, items } => Repr::Inline { len: *len, items: *items },
            Repr::Heap(v) => Repr::Heap(v.clone()),
        };
        InlineVec { repr }
    }
}

impl<T: Copy, const N: usize> Deref for InlineVec<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        match &self.repr {
            // SAFETY: the first `len` items are initialised and `MaybeUninit<T>` has `T`'s layout.
            Repr::Inline { len, items } => unsafe {
                std::slice::from_raw_parts(items.as_ptr().cast::<T>(), *len as usize)
            },
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy, const N: usize> DerefMut for InlineVec<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.repr {
            // SAFETY: as in `deref`.
            Repr::Inline { len, items } => unsafe {
                std::slice::from_raw_parts_mut(items.as_mut_ptr().cast::<T>(), *len as usize)
            },
            Repr::Heap(v) => v,
        }
    }
}

impl<T: Copy, const N: usize> Extend<T> for InlineVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, iter: I) {
        for item in iter {
            self.push(item);
        }
    }
}

impl<T: Copy, const N: usize> FromIterator<T> for InlineVec<T, N> {
    fn from_iter<I: IntoIterator<Item = T>>(iter: I) -> Self {
        let mut v = Self::new();
        v.extend(iter);
        v
    }
}

impl<T: Copy, const N: usize> From<Vec<T>> for InlineVec<T, N> {
    fn from(items: Vec<T>) -> Self {
        items.into_iter().collect()
    }
}

/// The items of an [`InlineVec`] by value, in order.
pub struct IntoIter<T: Copy, const N: usize> {
    items: InlineVec<T, N>,
    next: usize,
}

impl<T: Copy, const N: usize> Iterator for IntoIter<T, N> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        let item = self.items.get(self.next).copied();
        self.next += 1;
        item
    }
}

impl<T: Copy, const N: usize> IntoIterator for InlineVec<T, N> {
    type Item = T;
    type IntoIter = IntoIter<T, N>;

    fn into_iter(self) -> Self::IntoIter {
        IntoIter { items: self, next: 0 }
    }
}

impl<'a, T: Copy, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + std::fmt::Debug, const N: usize> std::fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<T: Copy + PartialEq, const N: usize> PartialEq for InlineVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: Copy + Hash, const N: usize> Hash for InlineVec<T, N> {
    // As a `Vec` hashes, so state hashes do not depend on where the items are kept.
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl<T: Copy + Serialize, const N: usize> Serialize for InlineVec<T, N> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(serializer)
    }
}

impl<'de, T: Copy + Deserialize<'de>, const N: usize> Deserialize<'de> for InlineVec<T, N> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(deserializer).map(Self::from)
    }
}

#[cfg(test)]
mod tests {
    use super::InlineVec;

    #[test]
    fn behaves_as_a_vec_in_place_and_on_the_heap() {
        let mut v: InlineVec<u16, 4> = InlineVec::new();
        let mut w: Vec<u16> = Vec::new();
        for i in 0..10u16 {
            v.push(i);
            w.push(i);
            assert_eq!(&*v, &w[..]);
            assert_eq!(v.is_inline(), w.len() <= 4);
        }
        assert_eq!(v.pop(), w.pop());
        v.truncate(2);
        w.truncate(2);
        assert_eq!(&*v, &w[..]);
        let mut small: InlineVec<u16, 4> = [1, 2, 3].into_iter().collect();
        let copy = small.clone();
        small[0] = 7;
        assert_eq!(&*copy, &[1, 2, 3], "a clone is independent of its original");
        assert_eq!(small.pop(), Some(3));
        assert_eq!(small.into_iter().collect::<Vec<_>>(), [7, 2]);
        let mut small: InlineVec<u16, 4> = vec![1].into();
        small.clear();
        assert_eq!(small.pop(), None);
    }

    #[test]
    fn serialises_and_hashes_as_a_vec() {
        use std::hash::{BuildHasher, RandomState};
        let v: InlineVec<u8, 2> = vec![1, 2, 3].into();
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, serde_json::to_string(&vec![1u8, 2, 3]).unwrap());
        let back: InlineVec<u8, 8> = serde_json::from_str(&json).unwrap();
        assert!(back.is_inline());
        let h = RandomState::new();
        assert_eq!(h.hash_one(&back), h.hash_one(vec![1u8, 2, 3]));
    }
}
