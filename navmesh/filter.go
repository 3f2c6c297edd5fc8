package navmesh

import (
	"errors"
	"fmt"
	"slices"

	"github.com/cairn-nav/cairn/grid"
)

// This file applies a query's [Query.Filter]. An excluded polygon is, to
// the search, a part of the walls: no portal into it is crossed
// (search.crosses), no end lies in it (locateEnds), and the corners of
// the walkable part change with it. A path may turn at a vertex where the
// polygons round it that the filter keeps leave a wedge of more than 180°
// free; the mesh marks the convex corners of the walls (reflex), and a
// vertex where an excluded polygon meets a kept one may be a new corner.
// The search takes every such vertex as a corner: a turn where no path
// needs one is legal and never part of a shorter path, so the answer stays
// the shortest, at the price of a few more nodes. The mesh keeps, for each
// vertex where polygons of two or more area types meet, the list of those
// types (areaCorners), so that this test costs a few bytes' reads.

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
// a vertex where polygons of an excluded area and of another meet.
func (s *search) corner(v int32) bool {
	m := s.m
	if m.reflex[v] {
		return true
	}
	if s.fl.excl == nil || m.vareaAt == nil {
		return false
	}
	as := m.vareas[m.vareaAt[v]:m.vareaAt[v+1]]
	for _, a := range as {
		if s.fl.excl[a] {
			return len(as) > 1
		}
	}
	return false
}

// areaCorners lists, for each vertex of m where polygons of two or more
// area types meet, those types (into vareaAt and vareas); it leaves them
// nil on a mesh of one area type.
func (m *Mesh) areaCorners() {
	m.vareaAt, m.vareas = nil, nil
	if m.area == nil {
		return
	}
	type va struct {
		v int32
		a uint8
	}
	var all []va
	for id, p := range m.polys {
		for _, v := range m.ev[p.e0 : p.e0+p.ne] {
			all = append(all, va{v, m.area[id]})
		}
	}
	slices.SortFunc(all, func(x, y va) int {
		if x.v != y.v {
			return int(x.v - y.v)
		}
		return int(x.a) - int(y.a)
	})
	all = slices.Compact(all)
	m.vareaAt = make([]int32, len(m.verts)+1)
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		if j-i > 1 {
			for _, x := range all[i:j] {
				m.vareas = append(m.vareas, x.a)
			}
		}
		m.vareaAt[all[i].v+1] = int32(len(m.vareas))
		i = j
	}
	for v := range m.verts {
		m.vareaAt[v+1] = max(m.vareaAt[v+1], m.vareaAt[v])
	}
}
