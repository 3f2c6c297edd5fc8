package navmesh_test

import (
	"fmt"
	"testing"

	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// TestLandmarkPinchEnds checks queries that start or end exactly on a
// corner between two diagonally blocked cells, with landmarks, against the
// oracle, on untiled and tiled meshes. Such a point lies in two wedges of
// polygons that meet only there: a path may leave it into either, but
// never pass through it from one to the other, so the landmark distances
// of one wedge's corners bound nothing about the other's.
func TestLandmarkPinchEnds(t *testing.T) {
	pinches := 0
	for i, g := range landmarkGrids(24) {
		var corners []mgl64.Vec2
		b := g.Bounds()
		for y := b.Min.Y; y <= b.Max.Y; y++ {
			for x := b.Min.X; x <= b.Max.X; x++ {
				if q := (mgl64.Vec2{float64(x), float64(y)}); pinch(g, q) {
					corners = append(corners, q)
				}
			}
		}
		if len(corners) == 0 {
			continue
		}
		pinches += len(corners)
		o := newAnyAngle(g)
		for _, tile := range []int{0, 5} {
			m, lm := withLandmarks(t, g, tile, 4)
			plain, guided := navmesh.NewSearcher(m), navmesh.NewSearcher(lm)
			r := testmap.NewRand(int64(i))
			free := testmap.FreeCells(g)
			for _, q := range corners {
				where := fmt.Sprintf("map %d tile %d", i, tile)
				for range 8 {
					p := tilePoint(r, free[r.IntN(len(free))], max(1, tile))
					guidedQuery(t, guided, plain, g, o, q, p, where)
					guidedQuery(t, guided, plain, g, o, p, q, where)
				}
				for _, c := range corners {
					guidedQuery(t, guided, plain, g, o, q, c, where)
				}
			}
		}
	}
	if pinches == 0 {
		t.Fatal("no map has a corner between two diagonal walls")
	}
	t.Logf("%d pinched corners", pinches)
}
