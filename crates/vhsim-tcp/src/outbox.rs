//! A first-in first-out queue for what an endpoint hands the world after one input (its
//! reports, the sink's ACKs): usually one item, taken before the next input. The first item
//! waits inline and only a second one goes to a heap buffer, so an endpoint that went idle
//! keeps no buffer (a `VecDeque` keeps the capacity it once grew: issue #29, memory per flow),
//! and that buffer is boxed, made when a second item first waits: a flow's endpoints hold three
//! outboxes, and an empty `VecDeque` alone is four words.

use std::collections::VecDeque;

/// First in, first out; the oldest item inline.
#[derive(Clone, Debug)]
pub struct Outbox<T> {
    /// The oldest item, when the queue is not empty and it has not been taken.
    first: Option<T>,
    /// The items after `first` (or all of them while `first` is empty), in order; `None`
    /// until a second item first waits.
    more: Option<Box<VecDeque<T>>>,
}

impl<T> Default for Outbox<T> {
    fn default() -> Self {
        Outbox { first: None, more: None }
    }
}

impl<T> Outbox<T> {
    /// Append `item`.
    #[inline]
    pub fn push(&mut self, item: T) {
        if self.is_empty() {
            self.first = Some(item);
        } else {
            self.push_more(item);
        }
    }

    /// Append `item` behind others (rare: kept out of line, so `push` inlines).
    #[cold]
    #[inline(never)]
    fn push_more(&mut self, item: T) {
        self.more.get_or_insert_with(Box::default).push_back(item);
    }

    /// Whether nothing waits.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.first.is_none() && self.more.as_ref().is_none_or(|m| m.is_empty())
    }

    /// Take the oldest item.
    #[inline]
    pub fn pop(&mut self) -> Option<T> {
        self.first.take().or_else(|| self.more.as_mut()?.pop_front())
    }
}

impl<T> Extend<T> for Outbox<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        for item in items {
            self.push(item);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Outbox;

    #[test]
    fn items_leave_in_the_order_they_came_whatever_the_interleaving() {
        let mut q = Outbox::default();
        q.push(1);
        q.push(2);
        assert_eq!(q.pop(), Some(1));
        q.push(3);
        q.extend([4, 5]);
        let out: Vec<i32> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(out, [2, 3, 4, 5]);
        assert!(q.is_empty());
        q.push(6);
        assert!(!q.is_empty());
        assert_eq!((q.pop(), q.pop()), (Some(6), None));
        assert!(q.is_empty());
    }
}
