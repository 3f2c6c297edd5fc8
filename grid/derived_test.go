package grid_test

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// areaMap is a random grid with area types and its cells as drawn: the
// oracle's independent view of the source.
type areaMap struct {
	g     *grid.Grid
	w, h  int
	free  []bool
	areas []uint8
	costs []float64 // nil without terrain
}

// The areas areaMap draws: free ground, swamp and area 7; blocked solid,
// water, trees and area 9.
var mapAreas = []uint8{grid.AreaGround, grid.AreaSwamp, grid.AreaWater, grid.AreaTrees, 7, 9, grid.AreaSolid}

func newAreaMap(seed int64, w, h int, conn grid.Connectivity, costs bool) *areaMap {
	r := testmap.NewRand(seed)
	m := &areaMap{w: w, h: h, free: make([]bool, w*h), areas: make([]uint8, w*h)}
	if costs {
		m.costs = make([]float64, w*h)
	}
	for i := range m.free {
		u := r.Float64()
		switch {
		case u < 0.10:
			m.areas[i] = grid.AreaSolid
		case u < 0.18:
			m.areas[i] = grid.AreaWater
		case u < 0.22:
			m.areas[i] = grid.AreaTrees
		case u < 0.25:
			m.areas[i] = 9
		case u < 0.45:
			m.areas[i], m.free[i] = grid.AreaSwamp, true
		case u < 0.55:
			m.areas[i], m.free[i] = 7, true
		default:
			m.areas[i], m.free[i] = grid.AreaGround, true
		}
		if costs {
			m.costs[i] = float64(1 + r.IntN(4))
		}
	}
	g, err := grid.New(w, h, m.free, grid.Options{Connectivity: conn, Costs: m.costs, Areas: m.areas})
	if err != nil {
		panic(err)
	}
	m.g = g
	return m
}

// randomFilter returns nil one time in five, else a filter that excludes,
// includes and weights the map's areas at random; the costs of the areas
// it excludes, and of AreaSolid, are sometimes ones a derived grid would
// refuse, which it must ignore. Costs reach grid.MaxCost when huge is set.
func randomFilter(r *rand.Rand, huge bool) *grid.Filter {
	if r.IntN(5) == 0 {
		return nil
	}
	f := new(grid.Filter)
	costs := []float64{0, 1, 1.5, 3}
	if huge {
		costs = append(costs, grid.MaxCost)
	}
	for _, a := range mapAreas {
		f.Exclude[a] = r.IntN(5) == 0
		f.Include[a] = r.IntN(3) == 0
		f.Cost[a] = costs[r.IntN(len(costs))]
		if f.Exclude[a] || a == grid.AreaSolid {
			f.Cost[a] = []float64{0.5, math.NaN(), -1}[r.IntN(3)]
		}
	}
	return f
}

// pass reports whether the oracle lets the unit into cell (x, y).
func (m *areaMap) pass(f *grid.Filter, x, y int) bool {
	if x < 0 || y < 0 || x >= m.w || y >= m.h {
		return false
	}
	i := y*m.w + x
	if f == nil {
		return m.free[i]
	}
	a := m.areas[i]
	return a != grid.AreaSolid && !f.Exclude[a] && (m.free[i] || f.Include[a])
}

// mult is the oracle's multiplier of cell (x, y) inside the grid.
func (m *areaMap) mult(f *grid.Filter, x, y int) float64 {
	i := y*m.w + x
	t := 1.0
	if m.costs != nil && m.free[i] { // New ignores blocked cells' costs
		t = m.costs[i]
	}
	if f != nil && m.pass(f, x, y) {
		if c := f.Cost[m.areas[i]]; c != 0 {
			t = min(t*c, grid.MaxCost)
		}
	}
	return t
}

// want returns the oracle's free bit and multiplier of the derived grid's
// cell (x, y) for size k and filter f.
func (m *areaMap) want(f *grid.Filter, k, x, y int) (bool, float64) {
	free, cost := true, 1.0
	for yy := y; yy < y+k; yy++ {
		for xx := x; xx < x+k; xx++ {
			free = free && m.pass(f, xx, yy)
			if xx >= 0 && yy >= 0 && xx < m.w && yy < m.h {
				cost = max(cost, m.mult(f, xx, yy))
			}
		}
	}
	return free, cost
}

// wantCosts reports whether the derived grid has terrain costs.
func (m *areaMap) wantCosts(f *grid.Filter) bool {
	if m.costs != nil {
		return true
	}
	for a := range 256 {
		if f != nil && uint8(a) != grid.AreaSolid && !f.Exclude[a] && f.Cost[a] != 0 && f.Cost[a] != 1 {
			return true
		}
	}
	return false
}

func TestDerivedMatchesOracle(t *testing.T) {
	for seed := int64(1); seed <= 24; seed++ {
		r := testmap.NewRand(1000 + seed)
		conn := grid.Connectivity(seed % 2)
		m := newAreaMap(seed, 5+r.IntN(40), 5+r.IntN(30), conn, seed%3 == 0)
		for range 6 {
			f, k := randomFilter(r, true), 1+r.IntN(4)
			what := fmt.Sprintf("seed %d %d×%d %v k %d filter %v", seed, m.w, m.h, conn, k, describe(f))
			s, err := m.g.Derived(k, f)
			if err != nil {
				t.Fatalf("%s: %v", what, err)
			}
			if s.Bounds() != m.g.Bounds() || s.Connectivity() != conn || s.HasCosts() != m.wantCosts(f) || s.Version() != 0 {
				t.Fatalf("%s: derived grid %v %v costs %v version %d, want %v %v costs %v version 0",
					what, s.Bounds(), s.Connectivity(), s.HasCosts(), s.Version(), m.g.Bounds(), conn, m.wantCosts(f))
			}
			for y := range m.h {
				for x := range m.w {
					p := image.Pt(x, y)
					free, cost := m.want(f, k, x, y)
					if !s.HasCosts() {
						cost = 1
					}
					if s.Passable(p) != free || s.Cost(p) != cost {
						t.Fatalf("%s: cell %v free %v cost %v, want free %v cost %v", what, p, s.Passable(p), s.Cost(p), free, cost)
					}
					for d := range 8 {
						q := p.Add(grid.Step(d))
						fq, _ := m.want(f, k, q.X, q.Y)
						legal := free && fq && s.In(q)
						if q.X != p.X && q.Y != p.Y {
							fa, _ := m.want(f, k, q.X, p.Y)
							fb, _ := m.want(f, k, p.X, q.Y)
							legal = legal && fa && fb && conn == grid.Eight
						}
						if s.CanStep(p, q) != legal {
							t.Fatalf("%s: CanStep(%v, %v) = %v, want %v", what, p, q, s.CanStep(p, q), legal)
						}
					}
				}
			}
		}
		// No filter: Sized's grid, and for size 1 a grid equal to g.
		for _, k := range []int{1, 2, 3} {
			s, err := m.g.Derived(k, nil)
			if err != nil {
				t.Fatal(err)
			}
			z, _ := m.g.Sized(k)
			if err := sameGrid(s, z); err != nil {
				t.Fatalf("seed %d k %d: Derived(k, nil) differs from Sized(k): %v", seed, k, err)
			}
			if k == 1 {
				if err := sameGrid(s, m.g); err != nil {
					t.Fatalf("seed %d: Derived(1, nil) differs from g: %v", seed, err)
				}
			}
		}
	}
}

// describe renders a filter's entries for the map's areas.
func describe(f *grid.Filter) string {
	if f == nil {
		return "nil"
	}
	var b strings.Builder
	for _, a := range mapAreas {
		fmt.Fprintf(&b, "[%d: ex %v in %v cost %v]", a, f.Exclude[a], f.Include[a], f.Cost[a])
	}
	return b.String()
}

// TestDerivedSearchEqualsFilter: on the derived grid of size 1, a path
// that a search with the same filter finds on the source is legal and
// costs exactly what that search says (the same multipliers, summed in the
// same order, when the derived grid has terrain costs), and a search of the derived grid finds the same optimum.
// The two optima may differ in the last bits: two searches may return
// different paths of equal cost, whose sums round differently.
func TestDerivedSearchEqualsFilter(t *testing.T) {
	n, differ := 0, 0
	for seed := int64(1); seed <= 12; seed++ {
		r := testmap.NewRand(2000 + seed)
		m := newAreaMap(seed, 60, 40, grid.Connectivity(seed%2), seed%3 == 0)
		f := randomFilter(r, false)
		if f == nil {
			f = new(grid.Filter)
		}
		f.Cost[grid.AreaSolid] = 0 // a query's filter checks it, though no cell of it passes
		s, err := m.g.Derived(1, f)
		if err != nil {
			t.Fatal(err)
		}
		src, der := grid.NewSearcher(m.g), grid.NewSearcher(s)
		for _, p := range testmap.RandomPairs(r, s, 60) {
			fpath, want, err1 := src.AppendPath(nil, p[0], p[1], grid.Query{Filter: f})
			path, got, err2 := der.AppendPath(nil, p[0], p[1], grid.Query{})
			if err1 != nil || err2 != nil || got.Status != want.Status || math.Abs(got.Cost-want.Cost) > 1e-12*want.Cost {
				t.Fatalf("seed %d %v→%v: derived %v cost %v (%v), filtered source %v cost %v (%v)\n%s",
					seed, p[0], p[1], got.Status, got.Cost, err2, want.Status, want.Cost, err1, testmap.Render(s, path))
			}
			if got.Status != core.Found {
				continue
			}
			n++
			if got.Cost != want.Cost {
				differ++
			}
			// Without terrain, PathCost counts the steps instead of summing.
			if c, err := s.PathCost(fpath); err != nil || c != want.Cost && (s.HasCosts() || math.Abs(c-want.Cost) > 1e-12*c) {
				t.Fatalf("seed %d %v→%v: the filtered path costs %v on the derived grid (%v), the filter search says %v\n%s",
					seed, p[0], p[1], c, err, want.Cost, testmap.Render(s, fpath))
			}
		}
	}
	t.Logf("%d connected pairs, %d whose optima differ in the last bits", n, differ)
	if n < 100 {
		t.Fatalf("only %d pairs connected", n)
	}
}

// TestUpdateDerivedMatchesFresh edits area maps at random and checks that
// derived grids brought up to date equal derived grids made afresh: cells,
// moves, every cell's multiplier, regions and search costs; that
// UpdateDerived reports the bounding rectangle of the cells it changed,
// inside r grown by k−1; and that the version goes up exactly when a cell
// changed.
func TestUpdateDerivedMatchesFresh(t *testing.T) {
	type derived struct {
		k int
		f *grid.Filter
		s *grid.Grid
	}
	edits, changes := 0, 0
	for seed := int64(1); seed <= 6; seed++ {
		r := testmap.NewRand(3000 + seed)
		w, h := 70+r.IntN(50), 40+r.IntN(50)
		m := newAreaMap(seed, w, h, grid.Connectivity(seed%2), seed%2 == 0)
		var ds []derived
		for i := range 5 {
			k, f := 1+i%3, randomFilter(r, true)
			if i == 4 { // a boat: water only, at a price
				f = new(grid.Filter)
				f.Include[grid.AreaWater] = true
				f.Exclude[grid.AreaGround], f.Exclude[grid.AreaSwamp], f.Exclude[7] = true, true, true
				f.Cost[grid.AreaWater] = 2
			}
			s, err := m.g.Derived(k, f)
			if err != nil {
				t.Fatal(err)
			}
			ds = append(ds, derived{k, f, s})
		}
		for e := range 40 {
			er, free := sizedEdit(r, w, h), r.IntN(2) == 0
			m.g.SetCells(er, free)
			edits++
			for _, d := range ds {
				what := fmt.Sprintf("seed %d edit %d %v free %v k %d filter %s", seed, e, er, free, d.k, describe(d.f))
				before, v := d.s.WithCells(image.Rectangle{}, false), d.s.Version()
				changed, err := d.s.UpdateDerived(m.g, d.k, d.f, er)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				var diff image.Rectangle
				for y := range h {
					for x := range w {
						p := image.Pt(x, y)
						if d.s.Passable(p) != before.Passable(p) || d.s.Cost(p) != before.Cost(p) {
							diff = diff.Union(image.Rect(x, y, x+1, y+1))
						}
					}
				}
				if changed != diff {
					t.Fatalf("%s: UpdateDerived reports %v changed, want %v", what, changed, diff)
				}
				if grown := image.Rect(er.Min.X-d.k+1, er.Min.Y-d.k+1, er.Max.X, er.Max.Y); !diff.In(grown) {
					t.Fatalf("%s: cells %v changed, outside %v", what, diff, grown)
				}
				wantV := v
				if !diff.Empty() {
					wantV++
					changes++
				}
				if d.s.Version() != wantV {
					t.Fatalf("%s: version %d, want %d", what, d.s.Version(), wantV)
				}
				fresh, err := m.g.Derived(d.k, d.f)
				if err != nil {
					t.Fatal(err)
				}
				if err := sameGrid(d.s, fresh); err != nil {
					t.Fatalf("%s: updated grid differs from a fresh one: %v", what, err)
				}
				for y := range h {
					for x := range w {
						if p := image.Pt(x, y); d.s.Cost(p) != fresh.Cost(p) {
							t.Fatalf("%s: blocked cell %v costs %v, fresh %v", what, p, d.s.Cost(p), fresh.Cost(p))
						}
					}
				}
				for _, pr := range sizedPairs(r, fresh, 4) {
					_, got, err1 := grid.NewSearcher(d.s).AppendPath(nil, pr[0], pr[1], grid.Query{})
					_, want, err2 := grid.NewSearcher(fresh).AppendPath(nil, pr[0], pr[1], grid.Query{})
					if err1 != nil || err2 != nil || got.Status != want.Status || !sizedNear(got.Cost, want.Cost) {
						t.Fatalf("%s %v→%v: updated %v cost %v (%v), fresh %v cost %v (%v)",
							what, pr[0], pr[1], got.Status, got.Cost, err1, want.Status, want.Cost, err2)
					}
				}
			}
		}
	}
	if changes < edits {
		t.Fatalf("%d edits changed derived grids only %d times", edits, changes)
	}
}

// TestDerivedAreasAfterEdit: an edit that frees a swamp cell makes it
// ground, whose cost the derived grid then takes; blocking a water cell
// makes it solid, which a boat no longer enters.
func TestDerivedAreasAfterEdit(t *testing.T) {
	areas := []uint8{
		grid.AreaSwamp, grid.AreaSwamp, grid.AreaGround,
		grid.AreaWater, grid.AreaWater, grid.AreaGround,
	}
	free := []bool{true, true, true, false, false, true}
	g, err := grid.New(3, 2, free, grid.Options{Areas: areas})
	if err != nil {
		t.Fatal(err)
	}
	f := new(grid.Filter)
	f.Cost[grid.AreaSwamp] = 3
	f.Include[grid.AreaWater] = true
	s, err := g.Derived(1, f)
	if err != nil {
		t.Fatal(err)
	}
	if c := s.Cost(image.Pt(0, 0)); c != 3 || !s.Passable(image.Pt(0, 1)) {
		t.Fatalf("before: swamp costs %v, water passable %v; want 3, true", c, s.Passable(image.Pt(0, 1)))
	}
	// Block then free the swamp cell (0,0); block the water cell (0,1).
	for _, e := range []struct {
		r    image.Rectangle
		free bool
	}{{image.Rect(0, 0, 1, 1), false}, {image.Rect(0, 0, 1, 1), true}, {image.Rect(0, 1, 1, 2), false}} {
		g.SetCells(e.r, e.free)
		if _, err := s.UpdateDerived(g, 1, f, e.r); err != nil {
			t.Fatal(err)
		}
	}
	if c := s.Cost(image.Pt(0, 0)); c != 1 || s.Passable(image.Pt(0, 1)) || !s.Passable(image.Pt(1, 1)) {
		t.Fatalf("after: freed swamp costs %v, solid water passable %v, other water %v; want 1, false, true",
			c, s.Passable(image.Pt(0, 1)), s.Passable(image.Pt(1, 1)))
	}
}

// TestDerivedCostCap: a filter's cost times the terrain stops at MaxCost.
func TestDerivedCostCap(t *testing.T) {
	g, err := grid.New(2, 1, []bool{true, true}, grid.Options{Costs: []float64{grid.MaxCost, 2}, Areas: []uint8{grid.AreaSwamp, grid.AreaSwamp}})
	if err != nil {
		t.Fatal(err)
	}
	f := new(grid.Filter)
	f.Cost[grid.AreaSwamp] = 1e6
	s, err := g.Derived(1, f)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := s.Cost(image.Pt(0, 0)), s.Cost(image.Pt(1, 0)); a != grid.MaxCost || b != 2e6 {
		t.Fatalf("costs %v and %v, want %v and 2e6", a, b, float64(grid.MaxCost))
	}
}

func TestDerivedErrors(t *testing.T) {
	m := newAreaMap(1, 20, 10, grid.Eight, false)
	low := new(grid.Filter)
	low.Cost[grid.AreaSwamp] = 0.5
	nan := new(grid.Filter)
	nan.Cost[grid.AreaGround] = math.NaN()
	big := new(grid.Filter)
	big.Cost[7] = 2 * grid.MaxCost
	for _, tc := range []struct {
		name string
		k    int
		f    *grid.Filter
		want string
	}{
		{"k 0", 0, nil, "unit size 0"},
		{"k too large", grid.MaxClearance + 1, nil, "unit size"},
		{"cost below 1", 1, low, "filter cost 0.5 for area 1"},
		{"cost NaN", 2, nan, "filter cost NaN for area 0"},
		{"cost too large", 1, big, "filter cost 2e+09 for area 7"},
	} {
		if _, err := m.g.Derived(tc.k, tc.f); err == nil || !strings.HasPrefix(err.Error(), "grid: ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Derived error %v, want one starting with \"grid: \" and holding %q", tc.name, err, tc.want)
		}
	}
	swamp := new(grid.Filter)
	swamp.Cost[grid.AreaSwamp] = 3
	plain, err := m.g.Derived(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	four := newAreaMap(1, 20, 10, grid.Four, false)
	wide := newAreaMap(1, 21, 10, grid.Eight, false)
	for _, tc := range []struct {
		name   string
		s, src *grid.Grid
		k      int
		f      *grid.Filter
	}{
		{"own source", m.g, m.g, 1, nil},
		{"size", plain, wide.g, 2, nil},
		{"connectivity", plain, four.g, 2, nil},
		{"costs from the filter", plain, m.g, 2, swamp},
		{"bad filter", plain, m.g, 2, low},
		{"k 0", plain, m.g, 0, nil},
	} {
		v := tc.s.Version()
		if _, err := tc.s.UpdateDerived(tc.src, tc.k, tc.f, image.Rect(0, 0, 5, 5)); err == nil || !strings.HasPrefix(err.Error(), "grid: ") {
			t.Errorf("%s: UpdateDerived error %v, want one starting with \"grid: \"", tc.name, err)
		}
		if tc.s.Version() != v {
			t.Errorf("%s: version changed on an error", tc.name)
		}
	}
}
