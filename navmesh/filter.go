package navmesh

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cairn-nav/cairn/grid"
	"github.com/go-gl/mathgl/mgl64"
)

// This file applies a query's [Query.Filter]. An excluded polygon is, to
// the search, a part of the walls: no portal into it is crossed
// (search.crosses), no end lies in it (locateEnds), and the corners where
// paths may turn change with it. On a grid's mesh every vertex is a grid
// corner, and the walkable part round it is the union of the quarters of
// the four cells round it that the mesh covers; a path may turn there when
// exactly three of them are walkable, which the mesh marks as its convex
// corners of the walls (reflex). Under a filter a cell is walkable when
// the mesh covers it and its area is not excluded, so the mesh records,
// for each vertex where polygons of several areas meet, the areas of its
// four cells (areaCorners), and the search counts them again (corner);
// elsewhere the polygons round a vertex are all kept or all excluded, and
// the mark stands.

// ErrFilterCost is the error of an exact query ([Query.Corridor] false)
// whose filter weighs some area by a cost other than 1: the exact search
// finds shortest paths, not cheapest ones; the corridor search weighs.
var ErrFilterCost = errors.New("navmesh: the exact search cannot weigh areas by cost: use Query.Corridor for a filter's cost multipliers")

// filter is a query's filter, as the searches read it.
type filter struct {
	excl *[256]bool   // the areas excluded; nil when none is
	cost [256]float64 // each area's multiplier, 1 by default
	low  float64      // the least multiplier of an area let through, at most 1
	// weighted is set when some area's multiplier is not 1.
	weighted bool
	f        *grid.Filter // the query's, or nil
}

// setFilter makes q's filter the one of the query being set up, and checks
// it; after an error the query has no filter.
func (sr *Searcher) setFilter(q Query) error {
	fl := &sr.g.fl
	f := q.Filter
	if f == nil && fl.f == nil {
		return nil
	}
	fl.reset(f)
	if f == nil {
		return nil
	}
	err := fl.set(f, q.Corridor)
	if err != nil {
		fl.reset(nil)
	}
	return err
}

// reset makes fl the filter that lets everything through at unit cost,
// for f.
func (fl *filter) reset(f *grid.Filter) {
	*fl = filter{low: 1, f: f}
	for a := range fl.cost {
		fl.cost[a] = 1
	}
}

// set reads f into fl, which reset has cleared, for a corridor query or an
// exact one.
func (fl *filter) set(f *grid.Filter, corridor bool) error {
	low, err := f.Check()
	if err != nil {
		return fmt.Errorf("navmesh: %w", err)
	}
	fl.low = low
	for a := range 256 {
		switch {
		case f.Include[a] && uint8(a) != grid.AreaSolid:
			return fmt.Errorf("navmesh: the filter includes area %d, but a mesh covers free cells only", a)
		case f.Exclude[a]:
			fl.excl = &f.Exclude
		case f.Cost[a] != 0 && f.Cost[a] != 1 && !corridor:
			return ErrFilterCost
		case f.Cost[a] != 0 && f.Cost[a] != 1:
			fl.cost[a] = f.Cost[a]
			fl.weighted = true
		}
	}
	return nil
}

// excluded reports whether the query's filter keeps the search out of
// polygon p.
func (s *search) excluded(p PolyID) bool {
	return s.fl.excl != nil && s.fl.excl[s.m.Area(p)]
}

// keep drops from ps, in place, the polygons the filter excludes.
func (s *search) keep(ps []PolyID) []PolyID {
	if s.fl.excl == nil {
		return ps
	}
	return slices.DeleteFunc(ps, s.excluded)
}

// corner reports whether a path of this query may turn at vertex v: a
// convex corner of the walls, or, under a filter that excludes some area,
// a grid corner where exactly three of the four cells round it are free
// and of areas the filter keeps (see the top of this file).
func (s *search) corner(v int32) bool {
	m := s.m
	if s.fl.excl == nil || m.vcellAt == nil || m.vcellAt[v] < 0 {
		return m.reflex[v]
	}
	k := 4 * m.vcellAt[v]
	kept := 0
	for _, a := range m.vcells[k : k+4] {
		if a != grid.AreaSolid && !s.fl.excl[a] {
			kept++
		}
	}
	return kept == 3
}

// areaCorners records, for each vertex of m where polygons of two or more
// area types meet, the areas of the four cells round it (grid.AreaSolid
// for a cell the mesh does not cover), into vcellAt and vcells; it leaves
// them nil on a mesh of one area type. Each cell's area is that of the
// polygon holding its centre, as no polygon spans two areas; m must locate
// points already. It costs a pass over the polygons' corners and four
// point locations a vertex recorded.
func (m *Mesh) areaCorners() {
	m.vcellAt, m.vcells = nil, nil
	if m.area == nil || m.walk == nil {
		return
	}
	const unseen, mixed = -1, -2
	first := make([]int16, len(m.verts)) // the area of a polygon round each vertex, or mixed
	for i := range first {
		first[i] = unseen
	}
	for id, p := range m.polys {
		a := int16(m.area[id])
		for _, v := range m.ev[p.e0 : p.e0+p.ne] {
			switch first[v] {
			case unseen:
				first[v] = a
			case a, mixed:
			default:
				first[v] = mixed
			}
		}
	}
	m.vcellAt = make([]int32, len(m.verts))
	for v, a := range first {
		m.vcellAt[v] = -1
		if a != mixed {
			continue
		}
		m.vcellAt[v] = int32(len(m.vcells) / 4)
		x, y := int(m.verts[v][0]), int(m.verts[v][1])
		for _, c := range [4][2]int{{x - 1, y - 1}, {x, y - 1}, {x - 1, y}, {x, y}} {
			area := grid.AreaSolid
			if m.walkableAt(c[0], c[1]) {
				if id, ok := m.Locate(mgl64.Vec2{float64(c[0]) + 0.5, float64(c[1]) + 0.5}); ok {
					area = m.area[id]
				}
			}
			m.vcells = append(m.vcells, area)
		}
	}
}
