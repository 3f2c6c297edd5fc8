package tri

import (
	"cmp"
	"fmt"
	"math/big"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// checkCDT returns what is wrong with ts as the constrained Delaunay
// triangulation of in, or "": a brute-force oracle, quadratic where it
// must be. It checks that
//   - every corner is a ring vertex and every triangle strictly
//     counter-clockwise (exact orientation);
//   - the adjacency is symmetric, each twin the same edge the other way;
//   - no directed edge is in two triangles, and the edges without a
//     triangle across are exactly the ring edges, each the way its ring
//     runs (so the triangles' boundary is the rings' and, all being
//     counter-clockwise, they cover the area once: the winding number
//     argument);
//   - there are n + 2h − 2 triangles for each polygon of n vertices and h
//     holes;
//   - the triangles' area sums to the rings' exactly (in big.Float with
//     bits enough for any float64 input);
//   - the centre of each triangle is inside the area (winding number 1 of
//     all rings, exact orientation), when inside is set, which costs O(n)
//     a triangle;
//   - every edge that is not a ring edge is locally Delaunay: the far
//     corner across it is not strictly inside the triangle's circle
//     (exact in-circle), which makes the whole constrained Delaunay.
func checkCDT(in Input, ts Triangles, inside bool) string {
	pos := in.Pos
	ring := map[int32]bool{}
	walls := map[[2]int32]bool{}
	want := 0
	twiceArea := new(big.Float).SetPrec(exactPrec)
	var rings [][]int32
	for _, pg := range in.Polygons {
		want += len(pg.Outer) + 2*len(pg.Holes) - 2
		for _, r := range append([][]int32{pg.Outer}, pg.Holes...) {
			rings = append(rings, r)
			for i, v := range r {
				w := r[(i+1)%len(r)]
				ring[v] = true
				walls[[2]int32{v, w}] = true
				addCross(twiceArea, pos[v], pos[w])
			}
		}
	}
	for _, pg := range in.Polygons {
		for _, h := range pg.Holes {
			want += len(h) // the holes' vertices
		}
	}
	if len(ts.Tris) != want {
		return fmt.Sprintf("%d triangles, want %d", len(ts.Tris), want)
	}
	if len(ts.Adj) != 3*len(ts.Tris) {
		return fmt.Sprintf("%d adjacency entries for %d triangles", len(ts.Adj), len(ts.Tris))
	}
	edge := func(h int32) [2]int32 {
		tr := ts.Tris[h/3]
		return [2]int32{tr[h%3], tr[(h%3+1)%3]}
	}
	sum := new(big.Float).SetPrec(exactPrec)
	seen := map[[2]int32]bool{}
	nwalls := 0
	for t, tr := range ts.Tris {
		for _, v := range tr {
			if !ring[v] {
				return fmt.Sprintf("triangle %d %v: vertex %d is on no ring", t, tr, v)
			}
		}
		a, b, c := pos[tr[0]], pos[tr[1]], pos[tr[2]]
		if geom.Orient(a, b, c) <= 0 {
			return fmt.Sprintf("triangle %d %v %v %v is flat or clockwise", t, a, b, c)
		}
		addCross(sum, a, b)
		addCross(sum, b, c)
		addCross(sum, c, a)
		if inside {
			// The centre, rounded, is inside the triangle for the
			// well-shaped triangles of the tests.
			m := a.Add(b).Add(c).Mul(1.0 / 3)
			if w := winding(pos, rings, m); w != 1 {
				return fmt.Sprintf("triangle %d %v %v %v: its centre %v has winding number %d", t, a, b, c, m, w)
			}
		}
		for k := range int32(3) {
			h := 3*int32(t) + k
			e := edge(h)
			if seen[e] {
				return fmt.Sprintf("edge %v is in two triangles", e)
			}
			seen[e] = true
			g := ts.Adj[h]
			if g < 0 {
				if !walls[e] {
					return fmt.Sprintf("edge %v has no triangle across but is no ring edge", e)
				}
				nwalls++
				continue
			}
			if walls[e] {
				return fmt.Sprintf("ring edge %v has a triangle across", e)
			}
			if g >= int32(len(ts.Adj)) || ts.Adj[g] != h || edge(g) != [2]int32{e[1], e[0]} {
				return fmt.Sprintf("half-edge %d %v: twin %d is not it the other way", h, e, g)
			}
			d := pos[ts.Tris[g/3][(g%3+2)%3]]
			pa, pb, pc := pos[e[0]], pos[e[1]], pos[tr[(k+2)%3]]
			if geom.InCircle(pa, pb, pc, d) > 0 {
				return fmt.Sprintf("edge %v–%v is not locally Delaunay: %v is inside the circle of %v", pa, pb, d, pc)
			}
		}
	}
	if nwalls != len(walls) {
		return fmt.Sprintf("%d walls, want the %d ring edges", nwalls, len(walls))
	}
	if sum.Cmp(twiceArea) != 0 {
		return fmt.Sprintf("twice the area is %v, want %v", sum.Text('g', 20), twiceArea.Text('g', 20))
	}
	return ""
}

// exactPrec is enough bits for a sum of products of two float64s to be
// exact: they span 2⁻²¹⁴⁸ to 2²⁰⁴⁸, and the sums of a test's few of
// them a few bits more.
const exactPrec = 4400

// addCross adds a × b to sum, exactly if sum has exactPrec bits.
func addCross(sum *big.Float, a, b mgl64.Vec2) {
	var l, r big.Float
	l.SetPrec(106).SetFloat64(a[0]).Mul(&l, r.SetPrec(106).SetFloat64(b[1]))
	sum.Add(sum, &l)
	l.SetFloat64(a[1]).Mul(&l, r.SetFloat64(b[0]))
	sum.Sub(sum, &l)
}

// winding returns the sum of the winding numbers of the rings round p,
// which is on none of them (Sunday's crossing rule, exact orientation).
func winding(pos []mgl64.Vec2, rings [][]int32, p mgl64.Vec2) int {
	w := 0
	for _, r := range rings {
		for i, v := range r {
			a, b := pos[v], pos[r[(i+1)%len(r)]]
			switch {
			case a[1] <= p[1] && b[1] > p[1] && geom.Orient(a, b, p) > 0:
				w++
			case a[1] > p[1] && b[1] <= p[1] && geom.Orient(a, b, p) < 0:
				w--
			}
		}
	}
	return w
}

// canonical returns the triangles of ts each from its least corner,
// sorted: a set to compare.
func canonical(tris [][3]int32) [][3]int32 {
	out := make([][3]int32, len(tris))
	for i, tr := range tris {
		k := 0
		if tr[1] < tr[k] {
			k = 1
		}
		if tr[2] < tr[k] {
			k = 2
		}
		out[i] = [3]int32{tr[k], tr[(k+1)%3], tr[(k+2)%3]}
	}
	slices.SortFunc(out, func(a, b [3]int32) int {
		return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]), cmp.Compare(a[2], b[2]))
	})
	return out
}

// unique reports whether every edge of ts that is not a wall is strictly
// locally Delaunay, so that ts is the only constrained Delaunay
// triangulation of its area (no four cocircular points to choose between).
func unique(pos []mgl64.Vec2, ts Triangles) bool {
	for h, g := range ts.Adj {
		if g < 0 {
			continue
		}
		tr := ts.Tris[h/3]
		k := h % 3
		d := pos[ts.Tris[g/3][(g%3+2)%3]]
		if geom.InCircle(pos[tr[k]], pos[tr[(k+1)%3]], pos[tr[(k+2)%3]], d) == 0 {
			return false
		}
	}
	return true
}

// earsDelaunay is the old pipeline: ear clipping, then Lawson's flips.
func earsDelaunay(in Input) (Triangles, error) {
	ts, err := Ears(in)
	if err != nil {
		return ts, err
	}
	ts.Delaunay(in.Pos)
	return ts, nil
}

// TestCheckCDT checks that the oracle can fail: on a star with holes,
// the triangulation passes, and each of these breaks it: an edge flipped
// out of the Delaunay triangulation, a triangle dropped, one turned
// clockwise, an edge's neighbour forgotten, and a triangle moved off the
// area's vertices.
func TestCheckCDT(t *testing.T) {
	in := starWithHoles(testmap.NewRand(2), 30, 9)
	ts, err := Triangulate(in)
	if err != nil {
		t.Fatal(err)
	}
	if msg := checkCDT(in, ts, true); msg != "" {
		t.Fatal(msg)
	}
	clone := func() Triangles { return Triangles{Tris: slices.Clone(ts.Tris), Adj: slices.Clone(ts.Adj)} }
	breaks := map[string]func() Triangles{
		"flipped": func() Triangles {
			c := clone()
			for h, g := range c.Adj {
				if g < 0 {
					continue
				}
				ab := c.Tris[h/3]
				k := h % 3
				a, b, x := ab[k], ab[(k+1)%3], ab[(k+2)%3]
				y := c.Tris[g/3][(g%3+2)%3]
				pa, pb, px, py := in.Pos[a], in.Pos[b], in.Pos[x], in.Pos[y]
				if geom.Orient(px, py, pa) < 0 && geom.Orient(px, py, pb) > 0 {
					c.Tris[h/3], c.Tris[g/3] = [3]int32{a, y, x}, [3]int32{y, b, x}
					c.Adj = Neighbors(len(in.Pos), c.Tris)
					return c
				}
			}
			t.Fatal("no convex pair of triangles to flip")
			return c
		},
		"dropped": func() Triangles {
			c := clone()
			c.Tris = c.Tris[:len(c.Tris)-1]
			c.Adj = Neighbors(len(in.Pos), c.Tris)
			return c
		},
		"clockwise": func() Triangles {
			c := clone()
			c.Tris[3][0], c.Tris[3][1] = c.Tris[3][1], c.Tris[3][0]
			return c
		},
		"neighbour forgotten": func() Triangles {
			c := clone()
			h := slices.IndexFunc(c.Adj, func(g int32) bool { return g >= 0 })
			c.Adj[h] = -1
			return c
		},
		"off the vertices": func() Triangles {
			c := clone()
			in.Pos = append(in.Pos, in.Pos[c.Tris[0][0]])
			c.Tris[0][0] = int32(len(in.Pos) - 1)
			return c
		},
	}
	for name, f := range breaks {
		if msg := checkCDT(in, f(), true); msg == "" {
			t.Errorf("%s: the oracle passes it", name)
		} else {
			t.Logf("%s: %s", name, msg)
		}
	}
}
