package navmesh

import (
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
