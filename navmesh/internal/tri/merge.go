package tri

import (
	"cmp"
	"slices"

	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// Rings are rings of vertex ids, one after another: ring i has the
// vertices Verts[Start[i]:Start[i+1]].
type Rings struct {
	Start []int32
	Verts []int32
}

// Len returns the number of rings.
func (r Rings) Len() int { return max(len(r.Start)-1, 0) }

// Ring returns the vertices of ring i.
func (r Rings) Ring(i int) []int32 { return r.Verts[r.Start[i]:r.Start[i+1]] }

// Faces are convex polygons, counter-clockwise (y up): the Rings of their
// vertices, and NB[j] the polygon across the edge from Verts[j] to the next
// vertex of its polygon, or −1 for a wall.
type Faces struct {
	Rings
	NB []int32
}

// Merge joins the counter-clockwise triangles ts (vertex ids into pos) into
// convex polygons by Hertel and Mehlhorn's method: every edge two pieces
// share is dropped when the union of the two is still convex (an angle of
// exactly 180° is kept as a vertex). Every diagonal left is essential (its
// removal would make a reflex angle at one of its ends), and each reflex
// vertex has at most two essential diagonals, so a polygon with r reflex
// vertices and h holes ends in at most 2r−h+1 pieces, where any convex
// partition without new vertices needs at least ⌈r/2⌉−h+1: at most four
// times the optimum without holes, less tight with them. The longest
// diagonals are tried first, which leaves long polygons that a path
// crosses in few steps: on grid maps it was measured to halve the steps of
// a search through a city and to make a tenth fewer polygons, against
// trying them in the order of their end points. The triangles are held as
// half-edges, so each removal costs O(1), and the whole O(t log t) for t
// triangles, for sorting the diagonals by length.
func Merge(pos []mgl64.Vec2, ts Triangles) Faces {
	tris := ts.Tris
	n := int32(3 * len(tris))
	org := make([]int32, n)
	next := make([]int32, n)
	prev := make([]int32, n)
	for t, tr := range tris {
		for k := range int32(3) {
			h := 3*int32(t) + k
			org[h] = tr[k]
			next[h] = 3*int32(t) + (k+1)%3
			prev[h] = 3*int32(t) + (k+2)%3
		}
	}
	twin := ts.Adj
	type diag struct {
		len2 float64
		h    int32
	}
	diags := make([]diag, 0, n/2)
	for h := range n {
		if twin[h] > h {
			d := pos[org[h]].Sub(pos[org[twin[h]]])
			diags = append(diags, diag{d.Dot(d), h})
		}
	}
	slices.SortFunc(diags, func(x, y diag) int { return cmp.Or(cmp.Compare(y.len2, x.len2), cmp.Compare(x.h, y.h)) })
	dead := make([]bool, n)
	for _, d := range diags {
		e, t := d.h, twin[d.h]
		a, b := org[e], org[t]
		// Round a: in along e's predecessor, out along t's successor;
		// round b: in along t's predecessor, out along e's successor.
		if geom.Orient(pos[org[prev[e]]], pos[a], pos[org[next[next[t]]]]) < 0 ||
			geom.Orient(pos[org[prev[t]]], pos[b], pos[org[next[next[e]]]]) < 0 {
			continue
		}
		ep, en, tp, tn := prev[e], next[e], prev[t], next[t]
		next[ep], prev[tn] = tn, ep
		next[tp], prev[en] = en, tp
		dead[e], dead[t] = true, true
	}
	face := make([]int32, n)
	for h := range face {
		face[h] = -1
	}
	f := Faces{Rings: Rings{Start: make([]int32, 0, len(tris)+1), Verts: make([]int32, 0, n)}}
	hs := make([]int32, 0, n) // per face vertex: its half-edge
	for h := range n {
		if dead[h] || face[h] >= 0 {
			continue
		}
		id := int32(len(f.Start))
		f.Start = append(f.Start, int32(len(f.Verts)))
		for g := h; face[g] < 0; g = next[g] {
			face[g] = id
			f.Verts = append(f.Verts, org[g])
			hs = append(hs, g)
		}
	}
	f.Start = append(f.Start, int32(len(f.Verts)))
	f.NB = make([]int32, len(hs))
	for j, h := range hs {
		f.NB[j] = -1
		if t := twin[h]; t >= 0 {
			f.NB[j] = face[t]
		}
	}
	return f
}

// Neighbors returns, for each edge k of each triangle t (from
// corner k to corner k+1), at index 3t+k, the same edge of the triangle
// across it, or −1 where there is none. The corners are vertex ids below
// nv.
func Neighbors(nv int, tris [][3]int32) []int32 {
	return PairEdges(nv, int32(3*len(tris)), func(h int32) (int32, int32) {
		tr := &tris[h/3]
		k := h % 3
		return tr[k], tr[(k+1)%3]
	})
}

// PairEdges returns the twin of each of n half-edges: twin[h] is the
// half-edge from h's end to its start, or −1 when there is none. ends(h)
// gives h's start and end, vertex ids below nv. The half-edges are bucketed
// by start vertex and by end vertex, and each vertex's are paired in one
// pass over both buckets, so it costs O(n + nv) time and memory however
// many half-edges meet at a vertex (a fan of ear-clipped triangles, say).
func PairEdges(nv int, n int32, ends func(h int32) (int32, int32)) []int32 {
	// bucket sorts the half-edges by key(h), each bucket in increasing
	// order: bucket v is hs[at[v]:at[v+1]].
	bucket := func(key func(h int32) int32) (at, hs []int32) {
		at = make([]int32, nv+1)
		for h := range n {
			at[key(h)+1]++
		}
		for v := range nv {
			at[v+1] += at[v]
		}
		hs = make([]int32, n)
		fill := slices.Clone(at[:nv])
		for h := range n {
			k := key(h)
			hs[fill[k]] = h
			fill[k]++
		}
		return at, hs
	}
	outAt, out := bucket(func(h int32) int32 { a, _ := ends(h); return a })
	inAt, in := bucket(func(h int32) int32 { _, b := ends(h); return b })
	twin := make([]int32, n)
	// Round each vertex v: slot[c] is the first half-edge from v to c,
	// where mark[c] is v+1; a half-edge from c into v has it for twin.
	slot := make([]int32, nv)
	mark := make([]int32, nv)
	for v := range int32(nv) {
		for _, g := range out[outAt[v]:outAt[v+1]] {
			if _, c := ends(g); mark[c] != v+1 {
				slot[c], mark[c] = g, v+1
			}
		}
		for _, h := range in[inAt[v]:inAt[v+1]] {
			twin[h] = -1
			if a, _ := ends(h); mark[a] == v+1 {
				twin[h] = slot[a]
			}
		}
	}
	return twin
}
