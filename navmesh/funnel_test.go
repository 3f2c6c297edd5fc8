package navmesh_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/funnel"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// This file checks funnel.Pull end to end on corridors of meshes built from
// grids: whatever chain of polygons a corridor follows, the pulled path
// must be legal on the grid (legal_test.go), and never shorter than the
// any-angle optimum.

// bfsCorridor returns the polygons of a shortest chain of neighbours from a
// to b, in order, and the portals between them; nil when b cannot be
// reached from a. Ties are broken at random by r.
func bfsCorridor(m *navmesh.Mesh, a, b navmesh.PolyID, r *rand.Rand) ([]navmesh.PolyID, []funnel.Portal) {
	type step struct {
		from   navmesh.PolyID
		portal funnel.Portal
	}
	prev := make([]step, m.NumPolys())
	seen := make([]bool, m.NumPolys())
	seen[a] = true
	queue := []navmesh.PolyID{a}
	var nbs []navmesh.Neighbor
	for len(queue) > 0 && !seen[b] {
		p := queue[0]
		queue = queue[1:]
		nbs = m.AppendNeighbors(nbs[:0], p)
		r.Shuffle(len(nbs), func(i, j int) { nbs[i], nbs[j] = nbs[j], nbs[i] })
		for _, nb := range nbs {
			if !seen[nb.Poly] {
				seen[nb.Poly] = true
				prev[nb.Poly] = step{p, nb.Portal}
				queue = append(queue, nb.Poly)
			}
		}
	}
	if !seen[b] {
		return nil, nil
	}
	polys := []navmesh.PolyID{b}
	var portals []funnel.Portal
	for p := b; p != a; p = prev[p].from {
		polys = append(polys, prev[p].from)
		portals = append(portals, prev[p].portal)
	}
	slices.Reverse(polys)
	slices.Reverse(portals)
	return polys, portals
}

// walkCorridor returns a random chain of distinct neighbouring polygons
// from a, of up to n steps, and the portals between them. Such chains
// wander, turn back and wrap round walls, as shortest chains rarely do.
func walkCorridor(m *navmesh.Mesh, a navmesh.PolyID, n int, r *rand.Rand) ([]navmesh.PolyID, []funnel.Portal) {
	used := map[navmesh.PolyID]bool{a: true}
	polys := []navmesh.PolyID{a}
	var portals []funnel.Portal
	var nbs []navmesh.Neighbor
	for range n {
		nbs = m.AppendNeighbors(nbs[:0], polys[len(polys)-1])
		nbs = slices.DeleteFunc(nbs, func(nb navmesh.Neighbor) bool { return used[nb.Poly] })
		if len(nbs) == 0 {
			break
		}
		nb := nbs[r.IntN(len(nbs))]
		used[nb.Poly] = true
		polys = append(polys, nb.Poly)
		portals = append(portals, nb.Portal)
	}
	return polys, portals
}

// pointIn draws a point of the 1/4 lattice in polygon id of a grid mesh,
// often on its sides or corners: from the polygon's bounding box until one
// is in the polygon (its corners are).
func pointIn(m *navmesh.Mesh, id navmesh.PolyID, r *rand.Rand) mgl64.Vec2 {
	vs := m.AppendPolygon(nil, id)
	lo, hi := vs[0], vs[0]
	for _, v := range vs {
		lo = mgl64.Vec2{math.Min(lo[0], v[0]), math.Min(lo[1], v[1])}
		hi = mgl64.Vec2{math.Max(hi[0], v[0]), math.Max(hi[1], v[1])}
	}
	inside := func(p mgl64.Vec2) bool {
		for i, a := range vs {
			b := vs[(i+1)%len(vs)]
			if (b[0]-a[0])*(p[1]-a[1])-(b[1]-a[1])*(p[0]-a[0]) > 0 {
				return false
			}
		}
		return true
	}
	for {
		p := mgl64.Vec2{
			lo[0] + float64(r.IntN(int(4*(hi[0]-lo[0]))+1))/4,
			lo[1] + float64(r.IntN(int(4*(hi[1]-lo[1]))+1))/4,
		}
		if r.IntN(3) == 0 { // a cell centre
			p = mgl64.Vec2{math.Floor(p[0]) + 0.5, math.Floor(p[1]) + 0.5}
		}
		if inside(p) {
			return p
		}
	}
}

// checkPulled pulls the corridor taut and checks the path: legal on g,
// from from to to, and not shorter than the optimum q finds.
func checkPulled(t *testing.T, g *grid.Grid, q *navmesh.Searcher, from, to mgl64.Vec2, portals []funnel.Portal, where string) {
	t.Helper()
	path := funnel.Pull(nil, from, to, portals)
	length, err := checkPath(g, path, from, to)
	if err != nil {
		t.Fatalf("%s: %v\npath %v\nportals %v\n%s", where, err, path, portals, testmap.Render(g, nil))
	}
	best, res, err := q.AppendPath(nil, from, to, navmesh.Query{})
	if err != nil || res.Status != core.Found {
		t.Fatalf("%s: the query finds no path (%v, %v) where the corridor has one", where, res.Status, err)
	}
	if length < res.Length-1e-9 {
		t.Fatalf("%s: pulled path %v is %v long, shorter than the optimum %v %v", where, path, length, res.Length, best)
	}
}

// TestPullOnGridMeshDrawn pulls the corridor of the map a colleague found
// the funnel's U-turn bug on: the straight line from (1,1) to the goal cuts
// through the wall cell (1,0).
func TestPullOnGridMeshDrawn(t *testing.T) {
	g, s, e := fromDrawing(t, `
		S#G
		...`)
	m := mustMesh(t, g)
	from, to := centre(s), centre(e)
	a, _ := m.Locate(from)
	b, _ := m.Locate(to)
	_, portals := bfsCorridor(m, a, b, testmap.NewRand(1))
	got := funnel.Pull(nil, from, to, portals)
	want := []mgl64.Vec2{{0.5, 0.5}, {1, 1}, {2, 1}, {2.5, 0.5}}
	if !slices.Equal(got, want) {
		t.Fatalf("got  %v\nwant %v\nportals %v", got, want, portals)
	}
	if _, err := checkPath(g, got, from, to); err != nil {
		t.Fatal(err)
	}
}

// TestPullOnGridMeshes pulls shortest and random chains of polygons of
// meshes of random and blocky grids between points of the 1/4 lattice.
func TestPullOnGridMeshes(t *testing.T) {
	type gridCase struct {
		name string
		g    *grid.Grid
	}
	var grids []gridCase
	for seed := int64(1); seed <= 8; seed++ {
		grids = append(grids,
			gridCase{fmt.Sprintf("random seed %d", seed), testmap.Random(seed, 24, 18, 0.1+0.05*float64(seed%5), grid.Options{})},
			gridCase{fmt.Sprintf("blocky seed %d", seed), blocky(seed, 24, 18, 14)})
	}
	pulled := 0
	for _, gc := range grids {
		m := mustMesh(t, gc.g)
		if m.NumPolys() == 0 {
			continue
		}
		q := navmesh.NewSearcher(m)
		r := testmap.NewRand(int64(len(gc.name)) + int64(m.NumPolys()))
		for i := range 300 {
			a := navmesh.PolyID(r.IntN(m.NumPolys()))
			from := pointIn(m, a, r)
			var polys []navmesh.PolyID
			var portals []funnel.Portal
			kind := "shortest"
			if i%2 == 0 {
				b := navmesh.PolyID(r.IntN(m.NumPolys()))
				if polys, portals = bfsCorridor(m, a, b, r); polys == nil {
					continue
				}
			} else {
				kind = "random"
				polys, portals = walkCorridor(m, a, 1+r.IntN(40), r)
			}
			to := pointIn(m, polys[len(polys)-1], r)
			checkPulled(t, gc.g, q, from, to, portals, fmt.Sprintf("%s, %s corridor %v, %v→%v", gc.name, kind, polys, from, to))
			pulled++
		}
	}
	t.Logf("%d corridors pulled", pulled)
}
