package navmesh

import (
	"fmt"
	"image"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh/internal/geom"
	"github.com/go-gl/mathgl/mgl64"
)

// TestCorridorTilesChainCost checks the decomposition that the corridor
// search over tiles rests on: with the abstract search unweighted, the
// chain of midpoints it joins from the legs costs what the shortest chain
// of the flat graph costs, found by the flat search with weight 1 (up to
// the tables' rounding to float32), on tiled meshes of seeded random
// grids, between cell centres, corners and points on tile lines.
func TestCorridorTilesChainCost(t *testing.T) {
	defer func(r, w float64) { corridorTileRange, corridorTileWeight = r, w }(corridorTileRange, corridorTileWeight)
	over, queries := 0, 0
	for seed := int64(1); seed <= 12; seed++ {
		g := testmap.Random(seed, 70, 50, 0.04*float64(seed%5), grid.Options{})
		size := []int{8, 5, 16, 11}[seed%4]
		m, err := FromGrid(g, Options{TileSize: size})
		if err != nil {
			t.Fatal(err)
		}
		sr := NewSearcher(m)
		r := testmap.NewRand(seed)
		for k, pr := range testmap.RandomPairs(r, g, 120) {
			from, to := centreOf(pr[0]), centreOf(pr[1])
			if k%3 == 1 {
				from = mgl64.Vec2{float64(pr[0].X), float64(pr[0].Y)} // a corner, often on a tile line
			}
			where := fmt.Sprintf("seed %d tile %d %v→%v", seed, size, from, to)
			corridorTileRange, corridorTileWeight = 0, 1
			_, res, err := sr.AppendPath(nil, from, to, Query{Corridor: true, OnePass: true}) // the midpoints' chain
			if err != nil || res.Status != core.Found {
				continue
			}
			queries++
			if !sr.c.joined {
				continue // the ends share a tile
			}
			over++
			c := sr.c
			got := 0.0
			for i := 1; i < len(c.ids); i++ {
				got += geom.Dist(c.point(c.ids[i-1]), c.point(c.ids[i]))
			}
			if c.ids[0] != corridorStart || c.ids[len(c.ids)-1] != corridorGoal {
				t.Fatalf("%s: chain %v does not run from the start to the goal", where, c.ids)
			}
			// The flat search, unweighted, on the same Searcher.
			corridorTileRange = math.Inf(1)
			if _, ok, _, _, _ := sr.beginCorridor(nil, from, to, Query{Corridor: true}); !ok {
				t.Fatalf("%s: the flat search did not begin", where)
			}
			c.cs.Begin(corridorStart, corridorGoal, c, core.Query{Weight: 1})
			c.cs.Step(math.MaxInt)
			want := c.cs.Result()
			if want.Status != core.Found {
				t.Fatalf("%s: flat search %v", where, want.Status)
			}
			if d := got - want.Cost; math.Abs(d) > 1e-5*(1+want.Cost) {
				t.Fatalf("%s: the chain over tiles costs %v, the shortest %v", where, got, want.Cost)
			}
		}
	}
	t.Logf("%d of %d queries ran over tiles", over, queries)
	if over < queries/2 {
		t.Fatalf("only %d of %d queries ran over tiles: the test checks too little", over, queries)
	}
}

// centreOf returns the centre of cell p.
func centreOf(p image.Point) mgl64.Vec2 { return mgl64.Vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5} }
