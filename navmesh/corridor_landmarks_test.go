package navmesh_test

import (
	"fmt"
	"testing"

	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// TestCorridorLandmarks checks the corridor search on meshes with
// landmarks, untiled and tiled, whose bounds join the straight line in its
// heuristic: every path legal, never shorter than the exact search's, its
// corridor sound, the mean excess as without them; and fewer crossings
// expanded in all than on the same meshes without landmarks. The maps are
// small, so the test lets the landmarks guide queries of any length.
func TestCorridorLandmarks(t *testing.T) {
	defer navmesh.SetCorridorLandmarkRange(0)()
	var with, without int
	var withX, withoutX excess
	for i, g := range landmarkGrids(18) {
		for _, tile := range []int{0, 6} {
			m, err := navmesh.FromGrid(g, navmesh.Options{TileSize: tile})
			if err != nil {
				t.Fatal(err)
			}
			if m.NumPolys() == 0 {
				continue
			}
			lm, err := m.WithLandmarks(4)
			if err != nil {
				t.Fatal(err)
			}
			guided, plain := navmesh.NewSearcher(lm), navmesh.NewSearcher(m)
			c := gridcheck.New(g, 0)
			r := testmap.NewRand(int64(i))
			for k := range 40 {
				from, to := endPair(g, m, r)
				where := fmt.Sprintf("map %d tile %d query %d %v→%v", i, tile, k, from, to)
				got, exact, err := compareCorridor(c, lm, guided, from, to, corridorQ)
				if err != nil {
					t.Fatalf("%s: %v", where, err)
				}
				withX.add(got, exact, where)
				_, a, _ := guided.AppendPath(nil, from, to, corridorQ)
				plainLen, _, err := compareCorridor(c, m, plain, from, to, corridorQ)
				if err != nil {
					t.Fatalf("%s, without landmarks: %v", where, err)
				}
				withoutX.add(plainLen, exact, where)
				_, b, _ := plain.AppendPath(nil, from, to, corridorQ)
				with += a.Expanded
				without += b.Expanded
			}
		}
	}
	// Warm queries allocate nothing with landmarks either.
	g := landmarkGrids(3)[2]
	_, lm := withLandmarks(t, g, 6, 4)
	s := navmesh.NewSearcher(lm)
	pr := testmap.RandomPairs(testmap.NewRand(5), g, 1)[0]
	var path []mgl64.Vec2
	if n := testing.AllocsPerRun(20, func() {
		path, _, _ = s.AppendPath(path[:0], centre(pr[0]), centre(pr[1]), corridorQ)
	}); n != 0 {
		t.Errorf("%v allocations a corridor query with landmarks, want 0", n)
	}
	t.Logf("expanded %d with landmarks, %d without; with: %v; without: %v", with, without, &withX, &withoutX)
	if withX.n < 500 {
		t.Fatalf("%d paths: the test checks too little", withX.n)
	}
	if with >= without {
		t.Errorf("expanded %d with landmarks, %d without: they guided nothing", with, without)
	}
	if withX.mean() > 0.10 {
		t.Errorf("mean excess %.2f %% with landmarks, want at most 10 %%", 100*withX.mean())
	}
}

// TestPortalBounds checks the corridor search's landmark bound at every
// portal's midpoint against the oracle's distance to the goal: a lower
// bound, and above the straight line somewhere, or it guides nothing.
func TestPortalBounds(t *testing.T) {
	checked, above := 0, 0
	for i, g := range landmarkGrids(12) {
		o := newAnyAngle(g)
		for _, tile := range []int{0, 5} {
			_, lm := withLandmarks(t, g, tile, 4)
			s := navmesh.NewSearcher(lm)
			r := testmap.NewRand(int64(i))
			for _, pr := range testmap.RandomPairs(r, g, 6) {
				from, to := tilePoint(r, pr[0], max(1, tile)), tilePoint(r, pr[1], max(1, tile))
				mids, bounds := navmesh.PortalBounds(s, from, to)
				for j, x := range mids {
					d := o.dist(x, to)
					if bounds[j] > d+1e-9*max(1, d) {
						t.Fatalf("map %d tile %d, goal %v: bound %v at portal midpoint %v, oracle %v", i, tile, to, bounds[j], x, d)
					}
					checked++
					if bounds[j] > x.Sub(to).Len()+1e-9 {
						above++
					}
				}
			}
		}
	}
	t.Logf("%d bounds checked, %d above the straight line", checked, above)
	if checked < 1000 || above == 0 {
		t.Fatalf("%d bounds checked, %d above the straight line: the test sees too little", checked, above)
	}
}
