package navmesh_test

import (
	"image"
	"math"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/go-gl/mathgl/mgl64"
)

// This file holds the legality checks and the any-angle oracle the tests
// measure paths against. They use no navmesh code: legality is decided
// exactly by package gridcheck (a leg may not cross a blocked cell's
// interior, run between two blocked cells, or pass through a grid corner
// between two diagonally opposite blocked cells).

// legalLeg returns nil when the segment a–b is legal for a point agent on
// g (see package gridcheck, which knows nothing of meshes).
func legalLeg(g *grid.Grid, a, b mgl64.Vec2) error { return gridcheck.New(g, 0).Leg(a, b) }

// checkPath checks that path runs legally from from to to on g and returns
// its length.
func checkPath(g *grid.Grid, path []mgl64.Vec2, from, to mgl64.Vec2) (float64, error) {
	return gridcheck.New(g, 0).Path(path, from, to)
}

// anyAngle is the exact any-angle shortest path oracle: Dijkstra on the
// visibility graph of the start, the goal, and the grid corners with
// exactly one blocked cell around them (the convex corners of the walls,
// where shortest paths turn), with legalLeg as the visibility test.
type anyAngle struct {
	g       *grid.Grid
	corners []mgl64.Vec2
	vis     [][]float64 // between corners; +Inf when not visible
}

func newAnyAngle(g *grid.Grid) *anyAngle {
	o := &anyAngle{g: g}
	for j := int64(0); j <= int64(g.Height()); j++ {
		for i := int64(0); i <= int64(g.Width()); i++ {
			n := 0
			for _, d := range [4][2]int64{{-1, -1}, {0, -1}, {-1, 0}, {0, 0}} {
				if !g.Passable(image.Pt(int(i+d[0]), int(j+d[1]))) {
					n++
				}
			}
			if n == 1 {
				o.corners = append(o.corners, mgl64.Vec2{float64(i), float64(j)})
			}
		}
	}
	o.vis = make([][]float64, len(o.corners))
	for a := range o.corners {
		o.vis[a] = make([]float64, len(o.corners))
	}
	for a := range o.corners {
		for b := a + 1; b < len(o.corners); b++ {
			d := math.Inf(1)
			if legalLeg(o.g, o.corners[a], o.corners[b]) == nil {
				d = o.corners[a].Sub(o.corners[b]).Len()
			}
			o.vis[a][b], o.vis[b][a] = d, d
		}
	}
	return o
}

// dist returns the length of the shortest legal path from from to to.
func (o *anyAngle) dist(from, to mgl64.Vec2) float64 {
	if legalLeg(o.g, from, to) == nil {
		return from.Sub(to).Len()
	}
	n := len(o.corners)
	dist := make([]float64, n)
	done := make([]bool, n)
	toGoal := make([]float64, n)
	for i, c := range o.corners {
		dist[i], toGoal[i] = math.Inf(1), math.Inf(1)
		if legalLeg(o.g, from, c) == nil {
			dist[i] = from.Sub(c).Len()
		}
		if legalLeg(o.g, c, to) == nil {
			toGoal[i] = c.Sub(to).Len()
		}
	}
	best := math.Inf(1)
	for {
		u := -1
		for i := range dist {
			if !done[i] && (u < 0 || dist[i] < dist[u]) {
				u = i
			}
		}
		if u < 0 || math.IsInf(dist[u], 1) || dist[u] >= best {
			return best
		}
		done[u] = true
		best = math.Min(best, dist[u]+toGoal[u])
		for v, w := range o.vis[u] {
			if !done[v] && dist[u]+w < dist[v] {
				dist[v] = dist[u] + w
			}
		}
	}
}
