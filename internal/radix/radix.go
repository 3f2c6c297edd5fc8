// Package radix is the monotone priority queue of the flow fields of
// packages agent and hpa, of hpa's Dijkstra searches inside clusters and
// from its landmarks, and of the navmesh's searches from its landmarks: a
// radix heap (Ahuja, Mehlhorn, Orlin and Tarjan,
// 1990) of nodes keyed by the bits of their non-negative float distances,
// which as unsigned integers are ordered as the floats are.
package radix

import "math/bits"

// Heap is a radix heap. Dijkstra's algorithm pushes no key below the last
// one popped, which is all it needs. Bucket b holds the entries whose key
// first differs from the last key popped at bit b−1 from the bottom
// (bucket 0: equal to it); a pop that finds bucket 0 empty takes the least
// key of the first bucket in use as the new last key and spreads that
// bucket over the buckets below, so an entry moves at most 64 times and
// usually a few. Entries of equal keys leave last in, first out. The zero
// Heap is empty; it allocates only while its buckets grow, and is not safe
// for concurrent use.
type Heap struct {
	last    uint64
	n       int
	used    uint64 // bit b−1 set when bucket b > 0 may hold entries
	buckets [65][]Entry
}

// Entry is a node and its key.
type Entry struct {
	Key  uint64
	Node int32
}

// Reset empties h, keeping its buckets' room.
func (h *Heap) Reset() {
	for i := range h.buckets {
		h.buckets[i] = h.buckets[i][:0]
	}
	h.last, h.n, h.used = 0, 0, 0
}

// Len returns the number of entries in h.
func (h *Heap) Len() int { return h.n }

// Push adds node n with key k, which must not be below the last key
// popped.
func (h *Heap) Push(k uint64, n int32) {
	b := bits.Len64(k ^ h.last)
	h.buckets[b] = append(h.buckets[b], Entry{Key: k, Node: n})
	h.used |= 1 << b >> 1
	h.n++
}

// Pop removes an entry of the least key; h must not be empty.
func (h *Heap) Pop() Entry {
	if len(h.buckets[0]) == 0 {
		i := bits.TrailingZeros64(h.used) + 1
		bkt := h.buckets[i]
		least := bkt[0].Key
		for _, e := range bkt[1:] {
			least = min(least, e.Key)
		}
		h.last = least
		for _, e := range bkt {
			b := bits.Len64(e.Key ^ least) // below i: e agrees with least above bit i−1
			h.buckets[b] = append(h.buckets[b], e)
			h.used |= 1 << b >> 1
		}
		h.buckets[i] = bkt[:0]
		h.used &^= 1 << (i - 1)
	}
	b0 := h.buckets[0]
	e := b0[len(b0)-1]
	h.buckets[0] = b0[:len(b0)-1]
	h.n--
	return e
}
