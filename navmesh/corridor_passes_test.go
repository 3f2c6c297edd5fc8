package navmesh_test

import (
	"fmt"
	"testing"

	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
)

// TestCorridorSecondPass checks that the corridor search's second pass
// never leaves a longer path than its first alone (Query.OnePass), on the
// convex meshes and meshes of rectangles of seeded grids and, when the
// benchmarks are present, on every 10th scenario of Berlin_0_1024, where it
// must shorten some paths and at least halve those more than 5 % longer
// than the exact search's. Both passes' paths are checked as legal, with
// their corridors, by compareCorridor.
func TestCorridorSecondPass(t *testing.T) {
	check := func(t *testing.T, c *gridcheck.Checker, m *navmesh.Mesh, s *navmesh.Searcher, from, to [2]float64, where string) (one, two, exact float64) {
		t.Helper()
		one, exact, err := compareCorridor(c, m, s, from, to, navmesh.Query{Corridor: true, OnePass: true})
		if err != nil {
			t.Fatalf("%s, one pass: %v", where, err)
		}
		two, _, err = compareCorridor(c, m, s, from, to, corridorQ)
		if err != nil {
			t.Fatalf("%s, two passes: %v", where, err)
		}
		if two > one+1e-9*max(1, one) {
			t.Fatalf("%s: two passes' path %v long, the first pass's alone %v", where, two, one)
		}
		return one, two, exact
	}
	shorter := 0
	for _, kind := range []string{"convex", "rectangles"} {
		for _, cm := range corridorMeshes(t, kind) {
			gc, gi, m := cm.gridCase, cm.index, cm.m
			s := navmesh.NewSearcher(m)
			c := gridcheck.New(gc.g, 0)
			r := testmap.NewRand(int64(300 + gi))
			for i := range 40 {
				from, to := endPair(gc.g, m, r)
				one, two, _ := check(t, c, m, s, from, to, fmt.Sprintf("%s mesh of %s, query %d %v→%v", kind, gc.name, i, from, to))
				if two < one-1e-9 {
					shorter++
				}
			}
		}
	}
	t.Logf("random grids: %d paths shorter with the second pass", shorter)
	if shorter == 0 {
		t.Fatalf("the second pass shortened no path of the random grids: the test checks too little")
	}
	if testing.Short() {
		return
	}
	g, scens := testmap.MovingAI(t, "Berlin_0_1024.map")
	m := mustMesh(t, g)
	s := navmesh.NewSearcher(m)
	c := gridcheck.New(g, 0)
	var overOne, overTwo, shorter2 int
	for i := 0; i < len(scens); i += 10 {
		from, to := centre(scens[i].Start), centre(scens[i].Goal)
		one, two, exact := check(t, c, m, s, from, to, fmt.Sprintf("Berlin scenario %d", i))
		if one > 1.05*exact {
			overOne++
		}
		if two > 1.05*exact {
			overTwo++
		}
		if two < one-1e-9 {
			shorter2++
		}
	}
	t.Logf("Berlin_0_1024: more than 5 %% over the exact search's: %d with one pass, %d with two; %d paths shorter", overOne, overTwo, shorter2)
	if shorter2 == 0 || 2*overTwo > overOne {
		t.Fatalf("Berlin_0_1024: %d paths more than 5 %% over the exact search's with one pass, %d with two (%d shorter): want at most half", overOne, overTwo, shorter2)
	}
}
