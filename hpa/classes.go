package hpa

import (
	"errors"
	"fmt"
	"image"
	"sync"

	"github.com/cairn-nav/cairn/grid"
)

// Class is one kind of agent: a unit size (clearance) and a filter.
type Class struct {
	// Size is the side k of the unit's square footprint, in cells,
	// anchored at its top-left cell as in package grid's unit sizes (see
	// [grid.Grid.Clearance]); 0 means 1. At most [grid.MaxClearance].
	Size int
	// Filter, when not nil, chooses the cells the unit may enter and
	// weights them by area type (see [grid.Filter]); its costs must be 0
	// or at least 1, since they become terrain multipliers. nil means the
	// grid's own free cells and terrain costs. A cost other than 0 or 1
	// for an area the filter may pass gives the class's grid terrain
	// costs even where no cell has that area (see [grid.Grid.Derived]),
	// which makes it larger and its build slower: leave out the costs of
	// areas a map does not have.
	Filter *grid.Filter
}

// MaxClasses is the largest number of classes [BuildClasses] and
// [ReadClasses] accept.
const MaxClasses = 64

// Classes is the HPA* of several agent classes over one grid: each class
// has its own derived grid ([grid.Grid.Derived]: the anchors where its
// footprint lies on cells its filter passes, the filter's costs folded
// into the terrain) and its own abstract [Graph] over that grid, which
// [NewSearcher] queries as any graph. A path is that of the unit's anchor
// cell, legal for the whole footprint on the source grid.
//
// This is not Harabor and Botea's annotated HPA* (one abstract graph whose
// nodes and edges carry clearance and terrain annotations, shared by all
// classes): nothing is shared between classes but the source grid, which
// the class of size 1 without a filter uses as its own grid. Memory adds
// up per class: a derived grid (about what the source takes, 8 bytes a
// cell more with terrain costs) and a graph per class. Building costs
// about as many [Build]s as there are classes, plus one O(width·height)
// derivation per class that needs one; a class whose grid has terrain
// costs builds slower than one without (BenchmarkBuildClasses measures
// both). A class of size 1 with a filter that changes nothing (no
// exclusions or inclusions, every cost 0 or 1) is the plain class.
//
// Classes is safe for concurrent queries, one [Searcher] per goroutine and
// class. Its graphs change only in [Classes.Update], which updates each
// class's grid and then its graph in place, as [Graph.Update] does, holding
// each graph's queries off while it runs. Between an edit of the source
// and the Update, the plain class's queries fail with [ErrStale]; the other
// classes answer on their grids as they were until Update reaches them,
// and fail with ErrStale between the update of their grid and that of
// their graph.
type Classes struct {
	src *grid.Grid
	cls []class
	mu  sync.Mutex // serialises Update and WriteTo
}

// class is one class of a Classes value.
type class struct {
	k  int
	f  *grid.Filter // a copy of the class's filter, as given; nil for none
	df *grid.Filter // the filter the derivation uses: f, or nil when f changes nothing
	g  *grid.Grid   // the class's grid: the source for the plain class
	h  *Graph
	// changed is what the last Update changed of g (see Classes.Changed).
	changed image.Rectangle
	rs      *Searcher // Refill's, made at its first call
}

// BuildClasses builds the graphs of the given agent classes over g, all
// with options opt (see [Build]). The filters are copied: changing one
// afterwards changes nothing.
//
// It is an error when g is nil, when there are no classes or more than
// [MaxClasses], when a class's size is negative or above
// [grid.MaxClearance], when a filter gives an area it may pass a cost that
// is not 0 and not in [1, grid.MaxCost] (below 1 it would not be a terrain
// multiplier), or when opt is one Build refuses. Its cost is one [Build]
// per class, on its derived grid, and one [grid.Grid.Derived] per class
// other than the plain one; it allocates those grids and graphs. It takes
// g's read lock for each in turn, so g must not be edited while it runs
// (its classes would see different versions); it is safe for concurrent
// use.
func BuildClasses(g *grid.Grid, classes []Class, opt Options) (*Classes, error) {
	c, err := newClasses(g, classes)
	if err != nil {
		return nil, err
	}
	for i := range c.cls {
		e := &c.cls[i]
		if e.h, err = Build(e.g, opt); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// newClasses checks the classes and makes their grids.
func newClasses(g *grid.Grid, classes []Class) (*Classes, error) {
	if g == nil {
		return nil, errors.New("hpa: nil grid")
	}
	if len(classes) == 0 || len(classes) > MaxClasses {
		return nil, fmt.Errorf("hpa: %d classes, want 1 to %d", len(classes), MaxClasses)
	}
	c := &Classes{src: g, cls: make([]class, len(classes))}
	for i, cl := range classes {
		k := cl.Size
		if k == 0 {
			k = 1
		}
		if k < 1 || k > grid.MaxClearance {
			return nil, fmt.Errorf("hpa: class %d: unit size %d, want 0 (meaning 1) to %d", i, cl.Size, grid.MaxClearance)
		}
		e := class{k: k, g: g}
		if cl.Filter != nil {
			f := *cl.Filter
			e.f = &f
			if !neutral(&f) {
				e.df = e.f
			}
		}
		if k > 1 || e.df != nil {
			var err error
			if e.g, err = g.Derived(k, e.df); err != nil {
				return nil, fmt.Errorf("hpa: class %d: %w", i, err)
			}
		}
		c.cls[i] = e
	}
	return c, nil
}

// neutral reports whether f lets a unit into exactly the grid's free cells
// at their own cost, as no filter does.
func neutral(f *grid.Filter) bool {
	for a := range 256 {
		if uint8(a) == grid.AreaSolid {
			continue
		}
		if f.Exclude[a] || f.Include[a] || f.Cost[a] != 0 && f.Cost[a] != 1 {
			return false
		}
	}
	return true
}

// Len returns the number of classes. It is O(1).
func (c *Classes) Len() int { return len(c.cls) }

// Class returns class i as given to [BuildClasses] (or read by
// [ReadClasses]), with a size of 0 read as 1 and a copy of its filter, so
// that changing it changes nothing; it allocates that copy. It panics when
// i is out of range.
func (c *Classes) Class(i int) Class {
	e := &c.cls[i]
	cl := Class{Size: e.k}
	if e.f != nil {
		f := *e.f
		cl.Filter = &f
	}
	return cl
}

// Graph returns the graph of class i: [NewSearcher](c.Graph(i)) answers the
// class's queries, paths of the unit's anchor cell. It is O(1); it panics
// when i is out of range.
func (c *Classes) Graph(i int) *Graph { return c.cls[i].h }

// Grid returns the grid of class i, the one its graph is built on: the
// source grid itself for the plain class (size 1, no filter or one that
// changes nothing), else its derived grid ([grid.Grid.Derived]). A grid
// search on it ([grid.NewSearcher]) gives the class's exact optimum. It is
// O(1); it panics when i is out of range. The caller must not edit a
// derived grid: [Classes.Update] does.
func (c *Classes) Grid(i int) *grid.Grid { return c.cls[i].g }

// Changed returns the cells of class i's grid that the last
// [Classes.Update] changed: the edited rectangle itself for the plain
// class, the anchors whose footprint or cost changed for the others
// (empty when none did). An agent of the class mends its path against it
// (agent.Planner.Repair). It is O(1); it panics when i is out of range.
func (c *Classes) Changed(i int) image.Rectangle {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cls[i].changed
}

// Refill calls [Searcher.Refill] on every class's graph, with a searcher
// of its own for each made at the first call: after [Classes.Update], in
// the frame of the edit, it finds again the tables and paths the update
// dropped, which queries would otherwise find, allocating, in the frames
// after it. Calls of Refill, Update and WriteTo are serialised. Its errors
// name the class.
func (c *Classes) Refill() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.cls {
		e := &c.cls[i]
		if e.rs == nil {
			e.rs = NewSearcher(e.h)
		}
		if err := e.rs.Refill(); err != nil {
			return fmt.Errorf("hpa: class %d: %w", i, err)
		}
	}
	return nil
}

// Update brings every class up to date after the source grid was edited
// in place with [grid.Grid.SetCells] in r (the union of the edits'
// rectangles): for each class, its derived grid with
// [grid.Grid.UpdateDerived] on r, which reports the cells that changed,
// then its graph in place with [Graph.Update] on those (on r for the plain
// class, whose grid is the source). Queries then answer as on
// [BuildClasses] of the edited grid with the same classes and options, and
// [Classes.WriteTo] writes the same bytes.
//
// Its cost is what the edit touches, per class: the derived grid's update
// over r grown by the class's size, and the graph's update of the clusters
// the changed cells reach; a class whose grid did not change costs only
// the first. Searchers stay valid. Calls of Update and WriteTo are
// serialised; Update must not overlap an edit of the source. Cells edited
// outside r make the result wrong; Update does not look for them. Its
// errors (not reached for grids BuildClasses or ReadClasses made) name the
// class.
func (c *Classes) Update(r image.Rectangle) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.cls {
		e := &c.cls[i]
		changed := r
		if e.g != c.src {
			var err error
			if changed, err = e.g.UpdateDerived(c.src, e.k, e.df, r); err != nil {
				return fmt.Errorf("hpa: class %d: %w", i, err)
			}
		}
		e.changed = changed
		if changed.Empty() {
			continue
		}
		if _, err := e.h.Update(e.g, changed); err != nil {
			return fmt.Errorf("hpa: class %d: %w", i, err)
		}
	}
	return nil
}
