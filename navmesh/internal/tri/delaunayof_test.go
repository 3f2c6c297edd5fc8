package tri

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// checkDelaunay returns what is wrong with d as the Delaunay
// triangulation of the points verts, or "": every half-edge has a twin,
// the same edge the other way; the real triangles are strictly
// counter-clockwise and locally Delaunay across every shared edge (exact
// in-circle); each ghost triangle's edge is a hull edge, with every point
// on its inner side and none inside it (so the ghosts go round the convex
// hull, collinear points on it included); every point is a vertex; and
// there are 2n − 2 − h real triangles for n points, h of them on the
// hull.
func checkDelaunay(d *cdt, verts []int32) string {
	inf := d.nv
	for h, g := range d.adj {
		t, k := h/3, h%3
		u, j := g/3, g%3
		if g < 0 || d.adj[g] != int32(h) || d.tris[t][k] != d.tris[u][(j+1)%3] || d.tris[t][(k+1)%3] != d.tris[u][j] {
			return fmt.Sprintf("half-edge %d: twin %d is not it the other way", h, g)
		}
	}
	used := map[int32]bool{}
	real, hull := 0, 0
	for t, tr := range d.tris {
		for _, v := range tr {
			used[v] = true
		}
		if d.ghost(int32(t)) {
			hull++
			k := 0
			for tr[k] == inf || tr[(k+1)%3] == inf {
				k++
			}
			a, b := d.pos[tr[(k+1)%3]], d.pos[tr[k]] // the hull edge a→b
			for _, v := range verts {
				p := d.pos[v]
				if o := geom.Orient(a, b, p); o < 0 || (o == 0 && p != a && p != b && !geom.SameSide(p, a, b) && !geom.SameSide(p, b, a)) {
					return fmt.Sprintf("hull edge %v→%v has %v outside or on it", a, b, p)
				}
			}
			continue
		}
		real++
		a, b, c := d.pos[tr[0]], d.pos[tr[1]], d.pos[tr[2]]
		if geom.Orient(a, b, c) <= 0 {
			return fmt.Sprintf("triangle %v %v %v is flat or clockwise", a, b, c)
		}
		for k := range int32(3) {
			g := d.adj[3*int32(t)+k]
			e := d.tris[g/3][(g%3+2)%3]
			if e != inf && geom.InCircle(d.pos[tr[k]], d.pos[tr[(k+1)%3]], d.pos[tr[(k+2)%3]], d.pos[e]) > 0 {
				return fmt.Sprintf("edge %v–%v is not locally Delaunay", d.pos[tr[k]], d.pos[tr[(k+1)%3]])
			}
		}
	}
	for _, v := range verts {
		if !used[v] {
			return fmt.Sprintf("point %d %v is no vertex", v, d.pos[v])
		}
	}
	if want := 2*len(verts) - 2 - hull; real != want {
		return fmt.Sprintf("%d triangles for %d points, %d on the hull; want %d", real, len(verts), hull, want)
	}
	return ""
}

// TestDelaunayOf checks the Delaunay triangulation of seeded random
// points of small lattices (so many collinear and cocircular, and all
// collinear at first now and then), in random order and in BRIO order,
// with checkDelaunay on every prefix of the order; and that a repeated point is
// a *dupError and points all on one line errCollinear.
func TestDelaunayOf(t *testing.T) {
	for seed := int64(1); seed <= 400; seed++ {
		r := testmap.NewRand(seed)
		n, side := 3+r.IntN(60), 2+r.IntN(12)
		var pos []mgl64.Vec2
		seen := map[mgl64.Vec2]bool{}
		for range n {
			p := mgl64.Vec2{float64(r.IntN(side)), float64(r.IntN(side))}
			if seed%5 == 0 && len(pos) < 6 {
				p[1] = 0 // the first few on one line
			}
			if !seen[p] {
				seen[p] = true
				pos = append(pos, p)
			}
		}
		order := make([]int32, len(pos))
		for i := range order {
			order[i] = int32(i)
		}
		if seed%2 == 0 {
			bx := geom.Box{Min: pos[0], Max: pos[0]}
			for _, p := range pos {
				bx = bx.Grow(p)
			}
			order = brio(pos, order, bx)
		}
		var d *cdt
		for m := 3; m <= len(order); m++ {
			collinear := true
			for _, v := range order[:m] {
				collinear = collinear && geom.Orient(pos[order[0]], pos[order[1]], pos[v]) == 0
			}
			var err error
			d, err = delaunayOf(pos, slices.Clone(order[:m]))
			if collinear != (err == errCollinear) || (err != nil && err != errCollinear) {
				t.Fatalf("seed %d, %d points: all on one line %v, error %v", seed, m, collinear, err)
			}
			if err != nil {
				continue
			}
			if msg := checkDelaunay(d, order[:m]); msg != "" {
				t.Fatalf("seed %d, %d points: %s", seed, m, msg)
			}
		}
		if d == nil {
			continue
		}
		if err := d.insert(order[r.IntN(len(order))]); err == nil {
			t.Fatalf("seed %d: a repeated point is no error", seed)
		} else if _, ok := err.(*dupError); !ok {
			t.Fatalf("seed %d: a repeated point: %v, want a *dupError", seed, err)
		}
	}
}
