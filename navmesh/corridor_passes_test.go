package navmesh_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
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

// TestCorridorSecondPassFilter checks that a filter with cost multipliers
// leaves out the second pass, under which the shorter of two paths may be
// the dearer (a review found one 0.9 % shorter and 56 % dearer): the
// answers are OnePass's, path for path. A filter that only excludes keeps
// the second pass, and its paths stay out of the excluded areas.
func TestCorridorSecondPassFilter(t *testing.T) {
	var weighted, excluding grid.Filter
	weighted.Cost[2], weighted.Cost[3] = 4, 2
	excluding.Exclude[3] = true
	differ := 0
	for seed := range int64(4) {
		g := areaGrid(seed+1, 60, 40)
		m, err := navmesh.FromGrid(g, navmesh.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s := navmesh.NewSearcher(m)
		c := gridcheck.New(testmap.Without(g, 3), 0)
		for i, p := range testmap.RandomPairs(testmap.NewRand(seed), g, 60) {
			from, to := centre(p[0]), centre(p[1])
			where := fmt.Sprintf("seed %d query %d %v→%v", seed+1, i, from, to)
			one, r1, err1 := s.AppendPath(nil, from, to, navmesh.Query{Corridor: true, OnePass: true, Filter: &weighted})
			two, r2, err2 := s.AppendPath(nil, from, to, navmesh.Query{Corridor: true, Filter: &weighted})
			if fmt.Sprint(err1) != fmt.Sprint(err2) || r1 != r2 || !slices.Equal(one, two) {
				t.Fatalf("%s, multipliers: %v %+v %v with two passes, %v %+v %v with one", where, two, r2, err2, one, r1, err1)
			}
			ex1, re1, _ := s.AppendPath(nil, from, to, navmesh.Query{Corridor: true, OnePass: true, Filter: &excluding})
			ex2, re2, err := s.AppendPath(nil, from, to, navmesh.Query{Corridor: true, Filter: &excluding})
			if err != nil || re2.Status != core.Found {
				continue
			}
			if _, err := c.Path(ex2, from, to); err != nil {
				t.Fatalf("%s, exclusions: path %v: %v", where, ex2, err)
			}
			if re2.Length > re1.Length+1e-9 {
				t.Fatalf("%s, exclusions: two passes' path %v long, one pass's %v", where, re2.Length, re1.Length)
			}
			if !slices.Equal(ex1, ex2) {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Fatalf("the second pass changed no path under exclusions: the test checks too little")
	}
}
