package tri

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// incremental is [Triangulate]'s method: the Delaunay triangulation of
// all the rings' vertices by randomized incremental insertion (see
// delaunayOf and brio), the ring edges forced in (see cdt.constrain), and
// the triangles outside the area dropped (see cdt.area). O(n log n)
// expected for n vertices, in any position: the order is random, the
// walks short, and only the constraint insertion's pseudo-polygons,
// typically small, are triangulated in quadratic time.
func incremental(in Input) (Triangles, error) {
	pos := in.Pos
	n := 0
	for _, pg := range in.Polygons {
		n += len(pg.Outer)
		for _, h := range pg.Holes {
			n += len(h)
		}
	}
	if n == 0 {
		return Triangles{Adj: []int32{}}, nil
	}
	// owner[v] is 1 + the polygon whose ring holds vertex v, 0 for none.
	owner := make([]int32, len(pos))
	verts := make([]int32, 0, n)
	var bx geom.Box
	for i, pg := range in.Polygons {
		for k, r := range append([][]int32{pg.Outer}, pg.Holes...) {
			if len(r) < 3 {
				return Triangles{}, &Error{Polygon: i, Problem: fmt.Sprintf("%s has %d vertices, want at least 3", ringName(k), len(r))}
			}
			if o := turn(pos, r); o == 0 || (k == 0) != (o > 0) {
				return Triangles{}, &Error{Polygon: i, Problem: ringName(k) + " runs the wrong way round, or turns back on itself"}
			}
			for _, v := range r {
				if owner[v] != 0 {
					return Triangles{}, &Error{Polygon: i, Problem: fmt.Sprintf("vertex %d is in two rings, or twice in one", v)}
				}
				owner[v] = int32(i + 1)
				if len(verts) == 0 {
					bx = geom.Box{Min: pos[v], Max: pos[v]}
				}
				bx = bx.Grow(pos[v])
				verts = append(verts, v)
			}
		}
	}
	d, err := delaunayOf(pos, brio(pos, verts, bx))
	if err != nil {
		p := 0
		if e, ok := errors.AsType[*dupError](err); ok {
			p = int(owner[max(e.u, e.v)] - 1)
		}
		return Triangles{}, &Error{Polygon: p, Problem: err.Error()}
	}
	d.vt = make([]int32, d.nv+1)
	for t, tr := range d.tris {
		for k, v := range tr {
			d.vt[v] = int32(3*t + k)
		}
	}
	d.fix = make([]int8, len(d.adj))
	d.goneAt = make([]int32, len(d.tris))
	for i, pg := range in.Polygons {
		for _, r := range append([][]int32{pg.Outer}, pg.Holes...) {
			for j, v := range r {
				if err := d.constrain(v, r[(j+1)%len(r)]); err != nil {
					return Triangles{}, &Error{Polygon: i, Problem: err.Error()}
				}
			}
		}
	}
	ts, bad := d.area()
	if bad >= 0 {
		p := -1
		for _, v := range d.tris[bad] {
			if v < d.nv && owner[v] > 0 {
				p = int(owner[v] - 1)
				break
			}
		}
		return Triangles{}, &Error{Polygon: p, Problem: errArea.Error()}
	}
	return ts, nil
}

var errArea = errors.New("the rings do not bound an area: rings cross")

// ringName names ring k of a polygon, 0 the outer ring, for messages.
func ringName(k int) string {
	if k == 0 {
		return "outer ring"
	}
	return fmt.Sprintf("hole %d", k)
}

// turn returns the orientation of ring r (+1 counter-clockwise, y up):
// the turn at its least vertex in (x, y) order, a corner of its convex
// hull, which on a simple ring is not flat. It costs O(len(r)).
func turn(pos []mgl64.Vec2, r []int32) int {
	lo := 0
	for i, v := range r {
		if p, q := pos[v], pos[r[lo]]; p[0] < q[0] || (p[0] == q[0] && p[1] < q[1]) {
			lo = i
		}
	}
	n := len(r)
	return geom.Orient(pos[r[(lo+n-1)%n]], pos[r[lo]], pos[r[(lo+1)%n]])
}

// area returns the triangles of d inside the rings, with their
// adjacency (−1 across ring edges): the side of a ring edge on its left
// is inside, the other side outside, and the rest is flooded from them
// across the edges that are not ring edges. If the two disagree, or the
// inside reaches a ghost triangle, it returns a triangle where they do as
// bad (else −1). It costs O(t log Δ) for t triangles, Δ the greatest
// degree, for the sort below.
func (d *cdt) area() (ts Triangles, bad int32) {
	state := make([]int8, len(d.tris)) // +1 inside, −1 outside
	var queue []int32
	flood := func(t int32) int32 {
		queue = append(queue[:0], t)
		for len(queue) > 0 {
			t := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for k := range int32(3) {
				h := 3*t + k
				g := d.adj[h]
				if d.fix[h] != 0 || g < 0 {
					continue
				}
				switch u := g / 3; state[u] {
				case 0:
					state[u] = state[t]
					queue = append(queue, u)
				case state[t]:
				default:
					return u
				}
			}
		}
		return -1
	}
	for t := range int32(len(d.tris)) {
		for k := range int32(3) {
			f := d.fix[3*t+k]
			switch {
			case f == 0:
			case state[t] == 0:
				state[t] = f
				if u := flood(t); u >= 0 {
					return Triangles{}, u
				}
			case state[t] != f:
				return Triangles{}, t
			}
		}
	}
	// Each triangle kept starts at its least vertex, and they are sorted
	// by their corners: the output depends on the triangles alone, not on
	// the order they were made in. A counting sort on the first corner,
	// then the few triangles at each vertex by the other two, keeps it
	// O(t log Δ) for t triangles and Δ the greatest degree.
	first := func(t int32) int32 { // the corner of t that it is to start at
		tr := d.tris[t]
		switch min(tr[0], tr[1], tr[2]) {
		case tr[0]:
			return 0
		case tr[1]:
			return 1
		}
		return 2
	}
	turned := func(t int32) [3]int32 {
		tr, k := d.tris[t], first(t)
		return [3]int32{tr[k], tr[(k+1)%3], tr[(k+2)%3]}
	}
	at := make([]int32, d.nv+2)
	for t, tr := range d.tris {
		if state[t] <= 0 {
			continue
		}
		if tr[0] >= d.nv || tr[1] >= d.nv || tr[2] >= d.nv {
			return Triangles{}, int32(t)
		}
		at[min(tr[0], tr[1], tr[2])+2]++
	}
	for v := range d.nv {
		at[v+2] += at[v+1]
	}
	kept := at[d.nv+1]
	order := make([]int32, kept) // the kept triangles, by first corner
	for t, tr := range d.tris {
		if state[t] > 0 {
			v := min(tr[0], tr[1], tr[2]) + 1
			order[at[v]] = int32(t)
			at[v]++
		}
	}
	// Now at[v] is where vertex v's triangles start.
	for v := range d.nv {
		if run := order[at[v]:at[v+1]]; len(run) > 1 {
			slices.SortFunc(run, func(a, b int32) int {
				p, q := turned(a), turned(b)
				return cmp.Or(cmp.Compare(p[1], q[1]), cmp.Compare(p[2], q[2]))
			})
		}
	}
	id := make([]int32, len(d.tris))
	for i, t := range order {
		id[t] = int32(i)
	}
	ts = Triangles{Tris: make([][3]int32, kept), Adj: make([]int32, 3*kept)}
	for i, t := range order {
		ts.Tris[i] = turned(t)
		f := first(t)
		for k := range int32(3) {
			h, nh := 3*t+(f+k)%3, 3*int32(i)+k
			ts.Adj[nh] = -1
			if g := d.adj[h]; d.fix[h] == 0 && g >= 0 {
				u := g / 3
				ts.Adj[nh] = 3*id[u] + (g%3-first(u)+3)%3
			}
		}
	}
	return ts, -1
}
