package tri

import (
	"math"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// delaunayInt flips the edges the triangles tris share until every one is
// locally Delaunay: no triangle's circumcircle strictly holds the far
// corner of its neighbour across a shared edge. The walls, the edges no
// two triangles share, stay, so the result is the constrained Delaunay
// triangulation of the same polygon (Lawson's flip algorithm). Ear
// clipping leaves long thin triangles, which the convex merge turns into
// many small polygons; Delaunay triangles are as round as the walls allow,
// and merge into fewer, larger ones. The triangles are counter-clockwise
// (y up). The tests are exact, so points on one circle (all four corners
// of a cell, say) are left as they are: in int64 when the corners have
// integer coordinates and span X along x and Y along y with
// X·Y·(X²+Y²) < 2⁶⁰ (a square of 2¹⁴ a side, say), else as in
// [delaunay] (on grids some 2¹⁶ cells wide, where the int64 determinant
// could overflow, or on rectangles of other sides). A flip happens only when the two triangles make a
// strictly convex quadrilateral, so two vertices at one position never
// meet in a triangle. It takes O(t) flips on typical input and O(t²) at
// worst, for t triangles. adj pairs the triangles' edges, as
// [Neighbors] does, and is kept up to date.
func delaunayInt(pos []mgl64.Vec2, tris [][3]int32, adj []int32) {
	// The in-circle determinant below is a sum of three products of a
	// squared length (at most X²+Y²) and a cross product (at most 2XY), so
	// it is below 6XY(X²+Y²) in magnitude; int64 arithmetic wraps, so the
	// result is exact when that bound is below 2⁶³, however the partial
	// products overflow.
	if len(pos) > 0 {
		lo, hi := pos[0], pos[0]
		whole := true
		for _, p := range pos {
			lo = mgl64.Vec2{math.Min(lo[0], p[0]), math.Min(lo[1], p[1])}
			hi = mgl64.Vec2{math.Max(hi[0], p[0]), math.Max(hi[1], p[1])}
			whole = whole && p[0] == math.Trunc(p[0]) && p[1] == math.Trunc(p[1])
		}
		if x, y := hi[0]-lo[0], hi[1]-lo[1]; !whole || x*y*(x*x+y*y) >= 0x1p60 {
			delaunay(pos, tris, adj)
			return
		}
	}
	type ipt struct{ x, y int64 }
	at := func(v int32) ipt { return ipt{int64(pos[v][0]), int64(pos[v][1])} }
	orient := func(a, b, c ipt) int64 { return (b.x-a.x)*(c.y-a.y) - (b.y-a.y)*(c.x-a.x) }
	// inCircle is positive when d is strictly inside the circle through
	// the counter-clockwise triangle a, b, c.
	inCircle := func(a, b, c, d ipt) int64 {
		ax, ay := a.x-d.x, a.y-d.y
		bx, by := b.x-d.x, b.y-d.y
		cx, cy := c.x-d.x, c.y-d.y
		return (ax*ax+ay*ay)*(bx*cy-cx*by) - (bx*bx+by*by)*(ax*cy-cx*ay) + (cx*cx+cy*cy)*(ax*by-bx*ay)
	}
	flipDelaunay(tris, adj, func(a, b, c, d int32) bool {
		pa, pb, pc, pd := at(a), at(b), at(c), at(d)
		return inCircle(pa, pb, pc, pd) > 0 && orient(pa, pd, pc) > 0 && orient(pd, pb, pc) > 0
	})
}

// delaunay is [delaunayInt] for any finite coordinates: the orientation
// and in-circle tests are exact (see [geom.Orient] and inCircle).
func delaunay(pos []mgl64.Vec2, tris [][3]int32, adj []int32) {
	flipDelaunay(tris, adj, func(a, b, c, d int32) bool {
		pa, pb, pc, pd := pos[a], pos[b], pos[c], pos[d]
		return inCircle(pa, pb, pc, pd) > 0 && geom.Orient(pa, pd, pc) > 0 && geom.Orient(pd, pb, pc) > 0
	})
}

// flipDelaunay runs Lawson's flips on the counter-clockwise triangles tris,
// whose edges adj pairs: flip(a, b, c, d) reports whether the edge from a
// to b, with c the far corner of its triangle (a, b, c) and d that of the
// triangle (b, a, d) across it, is to be replaced by the edge from c to d.
func flipDelaunay(tris [][3]int32, adj []int32, flip func(a, b, c, d int32) bool) {
	stack := make([]int32, 0, 3*len(tris))
	for h := range int32(3 * len(tris)) {
		if adj[h] >= 0 {
			stack = append(stack, h)
		}
	}
	// Exact predicates cannot cycle; the cap guards against rounding
	// in the in-circle filter on input near the ends of float64's range,
	// where a product may underflow. Flips only improve the shapes, so
	// stopping early still leaves a valid triangulation.
	for flips := 0; len(stack) > 0 && flips < max(1<<22, 64*len(tris)); {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		g := adj[h]
		if g < 0 {
			continue
		}
		t, k := h/3, h%3
		u, j := g/3, g%3
		a, b, c := tris[t][k], tris[t][(k+1)%3], tris[t][(k+2)%3]
		d := tris[u][(j+2)%3]
		if !flip(a, b, c, d) {
			continue
		}
		// t = (a, b, c) and u = (b, a, d) become t = (a, d, c) and
		// u = (d, b, c), with the diagonal c–d between them.
		nbc, nca := adj[3*t+(k+1)%3], adj[3*t+(k+2)%3]
		nad, ndb := adj[3*u+(j+1)%3], adj[3*u+(j+2)%3]
		flips++
		tris[t] = [3]int32{a, d, c}
		tris[u] = [3]int32{d, b, c}
		link := func(h, g int32) {
			adj[h] = g
			if g >= 0 {
				adj[g] = h
			}
		}
		link(3*t, nad)
		link(3*t+1, 3*u+2)
		link(3*t+2, nca)
		link(3*u, ndb)
		link(3*u+1, nbc)
		stack = append(stack, 3*t, 3*t+2, 3*u, 3*u+1)
	}
}
