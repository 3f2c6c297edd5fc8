package navmesh

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// This file finds two segments of polygon input that meet, by Shamos and
// Hoey's sweep: the ring vertices are taken in (x, y) order, and an
// ordered set holds the segments the sweep line crosses, bottom to top.
// Until two segments meet, that order does not change as the line moves;
// two segments that meet first at some point are neighbours in the set
// just before it, or one of them has an end there. So it is enough to
// test each pair of segments as it becomes neighbours in the set, and,
// at each vertex, whether an active segment passes through it.
//
// Sweeping in (x, y) order is sweeping with a line turned by an
// infinitesimal angle: a vertical segment is crossed from its lower end
// to its upper one, and no case is special. Every comparison is an exact
// orientation test.

// segSweep finds meeting segments of rings that passed readRings and
// checkTurns. Segment k runs from vertex k to vertex next[k] of verts:
// segments are numbered as their first vertices, ring by ring in input
// order. Segments k and next[k] are neighbours; they meet only at their
// shared vertex (checkTurns refused a ring that turns back on itself).
//
// A sweep that meets no fault also leaves, for each vertex v, under[v]:
// the segment right below v among those the line crosses at v without an
// end there, or −1. As no two rings meet, the segment under a ring's
// least vertex tells which ring encloses it (see checkNesting).
type segSweep struct {
	verts      []mgl64.Vec2
	next, prev []int32
	events     []sweepEvent // the vertices in (x, y) order
	set        activeSet
	under      []int32
}

// sweepEvent is vertex v, at p.
type sweepEvent struct {
	p mgl64.Vec2
	v int32
}

func newSegSweep(in *polyIn) *segSweep {
	n := len(in.verts)
	s := &segSweep{verts: in.verts, next: make([]int32, n), prev: make([]int32, n), events: make([]sweepEvent, n), under: make([]int32, n)}
	for _, r := range in.rings {
		for v := r.first; v < r.first+r.n; v++ {
			s.next[v], s.prev[v] = v+1, v-1
		}
		s.next[r.first+r.n-1], s.prev[r.first] = r.first, r.first+r.n-1
	}
	for v, p := range in.verts {
		s.events[v] = sweepEvent{p: p, v: int32(v)}
	}
	slices.SortFunc(s.events, func(a, b sweepEvent) int {
		switch {
		case before(a.p, b.p):
			return -1
		case before(b.p, a.p):
			return 1
		}
		return cmp.Compare(a.v, b.v)
	})
	s.set = newActiveSet(n)
	return s
}

// before reports whether p comes before q in the sweep, (x, y) order.
func before(p, q mgl64.Vec2) bool { return p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]) }

// ends returns the ends of segment k in sweep order.
func (s *segSweep) ends(k int32) (lo, hi mgl64.Vec2) {
	lo, hi = s.verts[k], s.verts[s.next[k]]
	if before(hi, lo) {
		lo, hi = hi, lo
	}
	return lo, hi
}

// meets reports whether segments a and b, both ≥ 0 and not neighbours in
// a ring, meet.
func (s *segSweep) meets(a, b int32) bool {
	if a < 0 || b < 0 || s.next[a] == b || s.next[b] == a {
		return false
	}
	kind, _, _ := geom.Meet(s.verts[a], s.verts[s.next[a]], s.verts[b], s.verts[s.next[b]])
	return kind != geom.MeetNone
}

// run sweeps segments 0 to lim and returns two of them that meet, other
// than neighbours in a ring, or ok false when there are none. It costs
// O(n log n) expected for n vertices: a vertex takes O(1) updates of the
// set, O(log n) each, and O(1) tests of pairs.
func (s *segSweep) run(lim int32) (a, b int32, ok bool) {
	s.set.root = -1
	ev := s.events
	for i := 0; i < len(ev); {
		// The segments with an end at q, all of one vertex: others of
		// another ring there meet them.
		q := ev[i].p
		var inc [2]int32
		n, from := 0, int32(-1)
		for ; i < len(ev) && ev[i].p == q; i++ {
			v := ev[i].v
			for _, k := range [2]int32{v, s.prev[v]} {
				if k > lim {
					continue
				}
				if from >= 0 && from != v {
					return inc[0], k, true
				}
				inc[n], from = k, v
				n++
			}
		}
		if n > 0 {
			if a, b, ok := s.vertex(q, from, inc[:n]); ok {
				return a, b, true
			}
		}
	}
	return -1, -1, false
}

// vertex moves the sweep past q, vertex v and the end of the segments
// inc (one or two neighbours): those ending there leave the set, those
// starting there join it. It returns two segments that meet, if it finds
// them, and sets under[v] otherwise.
func (s *segSweep) vertex(q mgl64.Vec2, v int32, inc []int32) (a, b int32, ok bool) {
	var starts [2]int32
	ns := 0
	for _, k := range inc {
		if lo, _ := s.ends(k); lo != q {
			if a, b := s.set.remove(k); s.meets(a, b) {
				return a, b, true
			}
			continue
		}
		starts[ns] = k
		ns++
	}
	// Find the place of q among the active segments, none of which has
	// an end at q. One through q meets the segments there (not its
	// neighbours, which would share an end with it and, running along
	// it, turn back).
	at, right, below := int32(-1), false, int32(-1)
	for x := s.set.root; x >= 0; {
		lo, hi := s.ends(x)
		o := geom.Orient(lo, hi, q)
		if o == 0 {
			return x, inc[0], true
		}
		at, right = x, o > 0
		if right {
			below, x = x, s.set.r[x]
		} else {
			x = s.set.l[x]
		}
	}
	s.under[v] = below
	if ns == 0 {
		return -1, -1, false
	}
	lower, upper := starts[0], starts[0]
	if ns == 2 {
		// Two segments start at q, one above the other: neither turns
		// back along the other, so their far ends tell which.
		_, h0 := s.ends(starts[0])
		_, h1 := s.ends(starts[1])
		upper = starts[1]
		if geom.Orient(q, h0, h1) < 0 {
			lower, upper = starts[1], starts[0]
		}
	}
	s.set.insert(lower, at, right)
	if upper != lower {
		s.set.insertAfter(upper, lower)
	}
	if p := s.set.pred(lower); s.meets(p, lower) {
		return p, lower, true
	}
	if n := s.set.succ(upper); s.meets(upper, n) {
		return upper, n, true
	}
	return -1, -1, false
}

// activeSet is the ordered set of the segments the sweep line crosses,
// bottom to top: a treap over segment numbers, its links in flat slices
// (−1 for none). Priorities hash the segment number with a random seed,
// so every operation costs O(log n) expected whatever the input.
type activeSet struct {
	l, r, p []int32
	root    int32
	seed    uint64
}

func newActiveSet(n int) activeSet {
	return activeSet{l: make([]int32, n), r: make([]int32, n), p: make([]int32, n), root: -1, seed: rand.Uint64()}
}

// prio returns the priority of x: a parent's exceeds its children's.
func (t *activeSet) prio(x int32) uint64 {
	z := uint64(x) + t.seed + 0x9e3779b97f4a7c15 // splitmix64
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// insert adds x as the child of at on the side right says (at −1: the
// set is empty), which must be the place of x in the order.
func (t *activeSet) insert(x, at int32, right bool) {
	t.l[x], t.r[x], t.p[x] = -1, -1, at
	switch {
	case at < 0:
		t.root = x
	case right:
		t.r[at] = x
	default:
		t.l[at] = x
	}
	for t.p[x] >= 0 && t.prio(x) > t.prio(t.p[x]) {
		t.rotateUp(x)
	}
}

// insertAfter adds x right after y.
func (t *activeSet) insertAfter(x, y int32) {
	if t.r[y] < 0 {
		t.insert(x, y, true)
		return
	}
	at := t.r[y]
	for t.l[at] >= 0 {
		at = t.l[at]
	}
	t.insert(x, at, false)
}

// remove takes x out and returns the segments that were below and above
// it (−1 for none), now neighbours.
func (t *activeSet) remove(x int32) (below, above int32) {
	below, above = t.pred(x), t.succ(x)
	for t.l[x] >= 0 && t.r[x] >= 0 {
		c := t.l[x]
		if t.prio(t.r[x]) > t.prio(c) {
			c = t.r[x]
		}
		t.rotateUp(c)
	}
	c := t.l[x]
	if c < 0 {
		c = t.r[x]
	}
	t.replace(x, c)
	return below, above
}

// replace puts c (maybe −1) where x is, under x's parent.
func (t *activeSet) replace(x, c int32) {
	g := t.p[x]
	if c >= 0 {
		t.p[c] = g
	}
	switch {
	case g < 0:
		t.root = c
	case t.l[g] == x:
		t.l[g] = c
	default:
		t.r[g] = c
	}
}

// rotateUp turns the link between x and its parent so that x takes the
// parent's place, keeping the order.
func (t *activeSet) rotateUp(x int32) {
	y := t.p[x]
	t.replace(y, x)
	if t.l[y] == x {
		b := t.r[x]
		t.l[y], t.r[x] = b, y
		if b >= 0 {
			t.p[b] = y
		}
	} else {
		b := t.l[x]
		t.r[y], t.l[x] = b, y
		if b >= 0 {
			t.p[b] = y
		}
	}
	t.p[y] = x
}

// pred returns the segment right below x, or −1.
func (t *activeSet) pred(x int32) int32 {
	if c := t.l[x]; c >= 0 {
		for t.r[c] >= 0 {
			c = t.r[c]
		}
		return c
	}
	for t.p[x] >= 0 && t.l[t.p[x]] == x {
		x = t.p[x]
	}
	return t.p[x]
}

// succ returns the segment right above x, or −1.
func (t *activeSet) succ(x int32) int32 {
	if c := t.r[x]; c >= 0 {
		for t.l[c] >= 0 {
			c = t.l[c]
		}
		return c
	}
	for t.p[x] >= 0 && t.r[t.p[x]] == x {
		x = t.p[x]
	}
	return t.p[x]
}
