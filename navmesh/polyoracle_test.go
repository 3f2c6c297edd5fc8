package navmesh_test

import (
	"fmt"
	"math"

	"github.com/go-gl/mathgl/mgl64"
	"github.com/paulmach/orb"
)

// This file holds the exact oracle that meshes built from polygons are
// measured against: the walkable region as rings of integer points, a
// legality test for straight legs, and the shortest path by Dijkstra over
// the visibility graph of the start, the goal and the reflex vertices. It
// uses no navmesh code. Coordinates are scaled by latScale to integers, so
// every decision is exact for points on the 1/latScale lattice, which the
// tests' polygons and query points are.

const latScale = 1 << 10

// ipt is a point scaled to the lattice.
type ipt struct{ x, y int64 }

func toLattice(v mgl64.Vec2) (ipt, error) {
	x, y := v[0]*latScale, v[1]*latScale
	if x != math.Trunc(x) || y != math.Trunc(y) || math.Abs(x) > 1<<24 || math.Abs(y) > 1<<24 {
		return ipt{}, fmt.Errorf("point %v is not on the 1/%d lattice", v, latScale)
	}
	return ipt{int64(x), int64(y)}, nil
}

func (p ipt) vec() mgl64.Vec2 { return mgl64.Vec2{float64(p.x) / latScale, float64(p.y) / latScale} }

func (p ipt) sub(q ipt) ipt { return ipt{p.x - q.x, p.y - q.y} }

// icross is the cross product of two vectors; its sign orients.
func icross(a, b ipt) int64 { return a.x*b.y - a.y*b.x }

// iorient is the sign of (b−a) × (c−a): positive for a left turn, y up.
func iorient(a, b, c ipt) int64 {
	switch v := icross(b.sub(a), c.sub(a)); {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

// between reports whether p, collinear with a and b, lies on the closed
// segment a–b.
func between(a, b, p ipt) bool {
	return min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
}

// region is a walkable area: rings with the area on their left (y up).
type region struct {
	rings [][]ipt
}

// newRegion reads mp, which must be on the lattice, closing no ring.
func newRegion(mp orb.MultiPolygon) (*region, error) {
	r := &region{}
	for _, pg := range mp {
		for k, ring := range pg {
			if n := len(ring); n > 1 && ring[0] == ring[n-1] {
				ring = ring[:n-1]
			}
			var ps []ipt
			var twice int64
			for _, p := range ring {
				q, err := toLattice(mgl64.Vec2(p))
				if err != nil {
					return nil, err
				}
				ps = append(ps, q)
			}
			for i, p := range ps {
				twice += icross(p, ps[(i+1)%len(ps)])
			}
			if (twice > 0) != (k == 0) {
				for i, j := 0, len(ps)-1; i < j; i, j = i+1, j-1 {
					ps[i], ps[j] = ps[j], ps[i]
				}
			}
			r.rings = append(r.rings, ps)
		}
	}
	return r, nil
}

// twiceArea returns twice the walkable area, in lattice units.
func (r *region) twiceArea() int64 {
	var s int64
	for _, ps := range r.rings {
		for i, p := range ps {
			s += icross(p, ps[(i+1)%len(ps)])
		}
	}
	return s
}

// reflex returns the vertices where the walkable angle exceeds 180°.
func (r *region) reflex() []ipt {
	var out []ipt
	for _, ps := range r.rings {
		for i, w := range ps {
			if iorient(ps[(i+len(ps)-1)%len(ps)], w, ps[(i+1)%len(ps)]) < 0 {
				out = append(out, w)
			}
		}
	}
	return out
}

// onBoundary reports whether p lies on a ring.
func (r *region) onBoundary(p ipt) bool {
	for _, ps := range r.rings {
		for i, a := range ps {
			if b := ps[(i+1)%len(ps)]; iorient(a, b, p) == 0 && between(a, b, p) {
				return true
			}
		}
	}
	return false
}

// contains reports whether p is in the closed region.
func (r *region) contains(p ipt) bool {
	if r.onBoundary(p) {
		return true
	}
	odd := false
	for _, ps := range r.rings {
		for i, a := range ps {
			b := ps[(i+1)%len(ps)]
			if (a.y > p.y) != (b.y > p.y) && (iorient(a, b, p) > 0) == (b.y > a.y) {
				odd = !odd
			}
		}
	}
	return odd
}

// inWedge reports whether direction d from vertex w, between a before it
// and b after it on a ring, starts into the closed walkable area there.
func inWedge(a, w, b, d ipt) bool {
	e0, e1 := a.sub(w), b.sub(w)
	switch o := iorient(a, w, b); {
	case o > 0:
		return icross(e1, d) >= 0 && icross(d, e0) >= 0
	case o < 0:
		return !(icross(e0, d) > 0 && icross(d, e1) > 0)
	}
	return icross(e1, d) >= 0
}

// legalLeg returns nil when the segment u–v lies in the closed region, else
// what is wrong. A segment that meets the boundary nowhere is tested at u;
// otherwise every place it meets the boundary (a vertex on it, or an end
// on an edge) is tested for the directions the segment takes from there,
// and proper crossings are refused: between those places it cannot change
// sides.
func (r *region) legalLeg(u, v ipt) error {
	if u == v {
		if !r.contains(u) {
			return fmt.Errorf("point %v is outside", u.vec())
		}
		return nil
	}
	d := v.sub(u)
	back := u.sub(v)
	contact := false
	for _, ps := range r.rings {
		for i, w := range ps {
			a, b := ps[(i+len(ps)-1)%len(ps)], ps[(i+1)%len(ps)]
			// The edge w–b crossing u–v at a point inside both.
			o1, o2 := iorient(w, b, u), iorient(w, b, v)
			o3, o4 := iorient(u, v, w), iorient(u, v, b)
			if o1*o2 < 0 && o3*o4 < 0 {
				return fmt.Errorf("crosses edge %v–%v", w.vec(), b.vec())
			}
			// A vertex on the segment.
			if o3 == 0 && between(u, v, w) {
				contact = true
				if w != v && !inWedge(a, w, b, d) {
					return fmt.Errorf("leaves the region at vertex %v", w.vec())
				}
				if w != u && !inWedge(a, w, b, back) {
					return fmt.Errorf("enters from outside at vertex %v", w.vec())
				}
			}
			// An end of the segment inside the edge w–b.
			for _, e := range [2]struct {
				p   ipt
				dir ipt
			}{{u, d}, {v, back}} {
				if e.p != w && e.p != b && iorient(w, b, e.p) == 0 && between(w, b, e.p) {
					contact = true
					if icross(b.sub(w), e.dir) < 0 {
						return fmt.Errorf("leaves the region from %v on edge %v–%v", e.p.vec(), w.vec(), b.vec())
					}
				}
			}
		}
	}
	if !contact && !r.contains(u) {
		return fmt.Errorf("lies outside")
	}
	return nil
}

// checkPolyPath checks that path runs legally from from to to and returns
// its length.
func (r *region) checkPath(path []mgl64.Vec2, from, to mgl64.Vec2) (float64, error) {
	if len(path) == 0 {
		return 0, fmt.Errorf("empty path")
	}
	if path[0] != from || path[len(path)-1] != to {
		return 0, fmt.Errorf("path runs from %v to %v, want %v to %v", path[0], path[len(path)-1], from, to)
	}
	if len(path) == 1 && from != to {
		return 0, fmt.Errorf("single-point path between different points")
	}
	var length float64
	prev, err := toLattice(path[0])
	if err != nil {
		return 0, err
	}
	if !r.contains(prev) {
		return 0, fmt.Errorf("start %v is outside", from)
	}
	for i := 1; i < len(path); i++ {
		p, err := toLattice(path[i])
		if err != nil {
			return 0, fmt.Errorf("point %d: %v", i, err)
		}
		if p == prev {
			return 0, fmt.Errorf("point %d repeats %v", i, path[i])
		}
		if err := r.legalLeg(prev, p); err != nil {
			return 0, fmt.Errorf("leg %d %v–%v: %v", i, path[i-1], path[i], err)
		}
		length += path[i].Sub(path[i-1]).Len()
		prev = p
	}
	return length, nil
}

// visGraph is the visibility graph of a region's reflex vertices, where
// shortest paths turn.
type visGraph struct {
	r       *region
	corners []ipt
	vis     [][]float64 // +Inf where not visible
}

func newVisGraph(r *region) *visGraph {
	o := &visGraph{r: r, corners: r.reflex()}
	n := len(o.corners)
	o.vis = make([][]float64, n)
	for a := range o.vis {
		o.vis[a] = make([]float64, n)
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			d := math.Inf(1)
			if r.legalLeg(o.corners[a], o.corners[b]) == nil {
				d = o.corners[a].vec().Sub(o.corners[b].vec()).Len()
			}
			o.vis[a][b], o.vis[b][a] = d, d
		}
	}
	return o
}

// dist returns the length of the shortest path in the region from from to
// to, +Inf when there is none.
func (o *visGraph) dist(from, to ipt) float64 {
	if o.r.legalLeg(from, to) == nil {
		return from.vec().Sub(to.vec()).Len()
	}
	n := len(o.corners)
	dist := make([]float64, n)
	toGoal := make([]float64, n)
	done := make([]bool, n)
	for i, c := range o.corners {
		dist[i], toGoal[i] = math.Inf(1), math.Inf(1)
		if o.r.legalLeg(from, c) == nil {
			dist[i] = from.vec().Sub(c.vec()).Len()
		}
		if o.r.legalLeg(c, to) == nil {
			toGoal[i] = c.vec().Sub(to.vec()).Len()
		}
	}
	best := math.Inf(1)
	for {
		u := -1
		for i := range dist {
			if !done[i] && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		if u < 0 || math.IsInf(dist[u], 1) || dist[u] >= best {
			return best
		}
		done[u] = true
		best = math.Min(best, dist[u]+toGoal[u])
		for v, w := range o.vis[u] {
			if !done[v] && dist[u]+w < dist[v] {
				dist[v] = dist[u] + w
			}
		}
	}
}

// validPolygons checks mp by brute force on the lattice, as FromPolygons
// documents its rules: rings of at least 3 distinct points not all on a
// line; no two segments meeting except neighbours at their shared point;
// holes inside their outer ring and outside each other; no polygon in the
// area of another. It returns what is wrong first, or nil.
func validPolygons(mp orb.MultiPolygon) error {
	if len(mp) == 0 {
		return fmt.Errorf("no polygons")
	}
	type ringAt struct {
		poly, ring int
		ps         []ipt
	}
	var rings []ringAt
	for i, pg := range mp {
		if len(pg) == 0 {
			return fmt.Errorf("polygon %d: no rings", i)
		}
		for k, ring := range pg {
			if n := len(ring); n > 1 && ring[0] == ring[n-1] {
				ring = ring[:n-1]
			}
			var ps []ipt
			for _, p := range ring {
				q, err := toLattice(mgl64.Vec2(p))
				if err != nil {
					return err
				}
				ps = append(ps, q)
			}
			if len(ps) < 3 {
				return fmt.Errorf("polygon %d ring %d: %d points", i, k, len(ps))
			}
			line := true
			for a := range ps {
				for b := a + 1; b < len(ps); b++ {
					if ps[a] == ps[b] {
						return fmt.Errorf("polygon %d ring %d: points %d and %d equal", i, k, a, b)
					}
				}
				line = line && iorient(ps[0], ps[1], ps[a]) == 0
			}
			if line {
				return fmt.Errorf("polygon %d ring %d: on a line", i, k)
			}
			rings = append(rings, ringAt{i, k, ps})
		}
	}
	// meets reports whether segments a–b and c–d share a point.
	meets := func(a, b, c, d ipt) bool {
		o1, o2, o3, o4 := iorient(c, d, a), iorient(c, d, b), iorient(a, b, c), iorient(a, b, d)
		if o1*o2 < 0 && o3*o4 < 0 {
			return true
		}
		return (o1 == 0 && between(c, d, a)) || (o2 == 0 && between(c, d, b)) ||
			(o3 == 0 && between(a, b, c)) || (o4 == 0 && between(a, b, d))
	}
	for x, r := range rings {
		n := len(r.ps)
		for i := range n {
			a, b := r.ps[i], r.ps[(i+1)%n]
			// The next segment, b–c, may share only b.
			if c := r.ps[(i+2)%n]; iorient(a, b, c) == 0 && icross(a.sub(b), c.sub(b)) == 0 && (a.sub(b).x*c.sub(b).x+a.sub(b).y*c.sub(b).y) > 0 {
				return fmt.Errorf("polygon %d ring %d: segments %d and %d overlap", r.poly, r.ring, i, (i+1)%n)
			}
			for y := x; y < len(rings); y++ {
				s := rings[y]
				for j := range len(s.ps) {
					if y == x && (j == i || j == (i+1)%n || (j+1)%n == i) {
						continue
					}
					if meets(a, b, s.ps[j], s.ps[(j+1)%len(s.ps)]) {
						return fmt.Errorf("polygon %d ring %d segment %d meets polygon %d ring %d segment %d", r.poly, r.ring, i, s.poly, s.ring, j)
					}
				}
			}
		}
	}
	// inside reports whether p, on no ring, is inside ring ps.
	inside := func(ps []ipt, p ipt) bool {
		return (&region{rings: [][]ipt{ps}}).contains(p)
	}
	area := func(i int, p ipt) bool {
		in := false
		for _, r := range rings {
			if r.poly == i && inside(r.ps, p) {
				in = !in
			}
		}
		return in
	}
	for x, r := range rings {
		if r.ring == 0 {
			for y, s := range rings {
				if s.ring == 0 && s.poly != r.poly && area(s.poly, r.ps[0]) {
					return fmt.Errorf("polygon %d overlaps polygon %d", x, y)
				}
			}
			continue
		}
		for _, s := range rings {
			if s.poly != r.poly {
				continue
			}
			if s.ring == 0 && !inside(s.ps, r.ps[0]) {
				return fmt.Errorf("polygon %d hole %d outside", r.poly, r.ring)
			}
			if s.ring > 0 && s.ring != r.ring && inside(s.ps, r.ps[0]) {
				return fmt.Errorf("polygon %d hole %d inside hole %d", r.poly, r.ring, s.ring)
			}
		}
	}
	return nil
}
