package navmesh

import (
	"github.com/cairn-nav/cairn/core"
	"slices"

	"github.com/go-gl/mathgl/mgl64"
)

// LandmarkDistances returns the points of m's landmarks, m's vertices, and
// for each landmark its distance to each vertex (NaN where it has none).
func LandmarkDistances(m *Mesh) (at, verts []mgl64.Vec2, d [][]float64) {
	if m.lm == nil {
		return nil, m.verts, nil
	}
	for i, v := range m.lm.at {
		at = append(at, m.verts[v])
		row := make([]float64, len(m.verts))
		for u := range row {
			row[u] = float64(m.lm.of(int32(u))[i])
		}
		d = append(d, row)
	}
	return at, m.verts, d
}

// StartBound returns the landmarks' bound from the start to the goal of
// s's last exact query.
func StartBound(s *Searcher) float64 { return s.g.startBound }

// GoalBounds returns the bounds of the goal's distance from each landmark.
func GoalBounds(s *Searcher) ([]float64, []float64) { return s.g.glo, s.g.ghi }

// GoalPolys returns the polygons of s's last goal and their vertices.
func GoalPolys(s *Searcher) (ids []PolyID, vs [][]int32) {
	for _, id := range s.g.gps {
		ids = append(ids, id)
		p := s.m.polys[id]
		vs = append(vs, slices.Clone(s.m.ev[p.e0:p.e0+p.ne]))
	}
	return ids, vs
}

// SetCorridorLandmarkRange sets the least distance between a query's ends
// for the corridor search to use landmarks, and returns a function that
// restores it.
func SetCorridorLandmarkRange(d float64) func() {
	old := corridorLandmarkRange
	corridorLandmarkRange = d
	return func() { corridorLandmarkRange = old }
}

// PortalBounds returns, for a query from from to to on sr's mesh, the
// midpoint of every portal and the corridor search's landmark bound on its
// distance to the goal (nil when settle answers the query itself).
func PortalBounds(sr *Searcher, from, to mgl64.Vec2) (mids []mgl64.Vec2, bounds []float64) {
	_, res, _, err := sr.settle(nil, from, to, Query{})
	if err != nil || res.Status != core.NotSearched {
		return nil, nil
	}
	g := &sr.g
	g.start, g.goal = from, to
	g.beginBounds()
	if g.lm == nil {
		return nil, nil
	}
	m := sr.m
	for _, p := range m.polys {
		for i := range p.ne {
			if m.enb[p.e0+i] >= 0 {
				mids = append(mids, m.mid(p, i))
				bounds = append(bounds, g.portalBound(p, i))
			}
		}
	}
	return mids, bounds
}
