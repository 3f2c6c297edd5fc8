package agent

import (
	"errors"
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
)

// Options tunes the searches of a [Planner] or a [Queue]. The zero value
// searches optimal paths (jump point search where the grid allows it), gives
// no partial paths, and lets a repair expand up to 4096 nodes.
type Options struct {
	// Query is the grid query of every search: heuristic, weight, and a cap
	// on expansions (a search that hits it gives a partial path toward the
	// goal, status Partial).
	Query grid.Query
	// Partial makes a goal that cannot be reached from the start (another
	// region, or a blocked cell) give a path to the reachable cell nearest
	// to it ([grid.Grid.NearestReachable]), status Partial, instead of
	// NoPath. Queries with a Query.Filter give no partial paths: the
	// regions know nothing of filters.
	Partial bool
	// RepairExpansions caps the search with which [Planner.Repair] mends a
	// broken stretch of a path before it gives up and reports the path
	// Broken; 0 means 4096.
	RepairExpansions int
}

// Planner searches and mends paths at once, on one grid. It owns a
// [grid.Searcher] (about 16 bytes a cell) and is not safe for concurrent
// use: keep one per goroutine.
type Planner struct {
	Options
	g   *grid.Grid
	s   *grid.Searcher
	buf []image.Point
}

// NewPlanner returns a planner for g with the zero Options. It panics when
// g is nil.
func NewPlanner(g *grid.Grid) *Planner {
	if g == nil {
		panic("agent: NewPlanner of a nil grid")
	}
	return &Planner{g: g, s: grid.NewSearcher(g)}
}

// Grid returns the grid the planner searches.
func (pl *Planner) Grid() *grid.Grid { return pl.g }

// errNoCells is MoveGoal's error for a path with nothing to keep.
var errNoCells = errors.New("agent: the path has no cells: plan it first")

// resolve returns the cell a search from from should head for to serve the
// goal to, and the status the path then has: to itself (Following) when
// from reaches it, else with partial paths the reachable cell nearest to
// it (Partial), else nothing (NoPath, ok false). A start off the grid or
// blocked is an error, and so is a goal off the grid.
func resolve(g *grid.Grid, opt *Options, from, to image.Point) (end image.Point, st Status, ok bool, err error) {
	f := opt.Query.Filter
	if !f.Passable(g, from) {
		return from, NoPath, false, fmt.Errorf("agent: start %v is blocked or off the %d×%d grid", from, g.Width(), g.Height())
	}
	if !g.In(to) {
		return to, NoPath, false, fmt.Errorf("agent: goal %v is off the %d×%d grid", to, g.Width(), g.Height())
	}
	if f != nil {
		// The regions know nothing of filters: the search decides.
		return to, Following, f.Passable(g, to), nil
	}
	if g.Connected(from, to) {
		return to, Following, true, nil
	}
	if !opt.Partial {
		return to, NoPath, false, nil
	}
	end, ok = g.NearestReachable(to, from)
	return end, Partial, ok, nil
}

// Plan searches a path for p from one cell to another and makes it p's
// path, with status Following, Partial (see [Options.Partial], and a search
// that hit Query.MaxExpansions) or NoPath. A start that is blocked or off
// the grid, or a goal off the grid, is an error, and leaves p NoPath. A
// request p has waiting in a [Queue] is cancelled.
//
// It costs one grid search and allocates only when p's cells outgrow
// what they held before.
func (pl *Planner) Plan(p *Path, from, to image.Point) (grid.Result, error) {
	if p.q != nil {
		p.q.Cancel(p)
	}
	end, st, ok, err := resolve(pl.g, &pl.Options, from, to)
	if err != nil || !ok {
		p.set(pl.g, pl.Query.Filter, p.cells[:0], to, NoPath)
		p.err = err
		return grid.Result{Status: core.Unreachable}, err
	}
	cells, res, err := pl.s.AppendPath(p.cells[:0], from, end, pl.Query)
	p.set(pl.g, pl.Query.Filter, cells, to, statusOf(st, res.Status))
	p.err, p.cutOff = err, st == Partial && res.Status == core.Found
	return res, err
}

// statusOf is the status of a path whose end resolve gave status st and
// whose search ended with s.
func statusOf(st Status, s core.Status) Status {
	switch s {
	case core.Found:
		return st
	case core.BudgetSpent:
		return Partial
	}
	return NoPath
}

// MoveGoal moves p's goal to to and searches only the end of the path
// again: from the cell of the path ahead of the agent nearest to the new
// goal (by octile distance), whose prefix it keeps. The result is a legal
// path, not always the shortest from the agent: a goal moved a little costs
// a short search, and a goal moved far a search from near the agent. Its
// status and errors are Plan's, and a path with no cells is an error; its
// cost and expansions are those of the search of the end alone, from the
// kept cell to the goal (the path's cost is p's cells' on the grid).
//
// It runs in O(path) plus one grid search and allocates only when the
// path outgrows its slices.
func (pl *Planner) MoveGoal(p *Path, to image.Point) (grid.Result, error) {
	if len(p.cells) == 0 || p.status == NoPath {
		return grid.Result{}, errNoCells
	}
	if p.q != nil {
		p.q.Cancel(p)
	}
	m, best := p.at, grid.Octile(p.cells[p.at], to)
	for i := p.at + 1; i < len(p.cells); i++ {
		if d := grid.Octile(p.cells[i], to); d < best {
			m, best = i, d
		}
	}
	end, st, ok, err := resolve(pl.g, &pl.Options, p.cells[m], to)
	if err != nil || !ok {
		at := p.at
		p.set(pl.g, pl.Query.Filter, p.cells, to, NoPath)
		p.at, p.err = at, err
		return grid.Result{Status: core.Unreachable}, err
	}
	var res grid.Result
	pl.buf, res, err = pl.s.AppendPath(pl.buf[:0], p.cells[m], end, pl.Query)
	if err != nil {
		return res, err
	}
	at := p.at
	if res.Status != core.Found && res.Status != core.BudgetSpent {
		// No way from the path to the new goal (a filter's search found
		// none): the path keeps its cells, as a path with no goal.
		p.set(pl.g, pl.Query.Filter, p.cells, to, NoPath)
		p.at = at
		return res, nil
	}
	p.set(pl.g, pl.Query.Filter, append(p.cells[:m], pl.buf...), to, statusOf(st, res.Status))
	p.at, p.cutOff = at, st == Partial && res.Status == core.Found
	return res, nil
}

// Mend says what [Planner.Repair] did to a path.
type Mend uint8

const (
	// Intact: the edit touches no step of the path ahead.
	Intact Mend = iota
	// Mended: a broken stretch was searched again and spliced in; the
	// rest of the path is kept.
	Mended
	// Broken: the path ahead is broken and could not be mended within
	// Options.RepairExpansions (a wall cut a corridor, or the end was
	// blocked), or a Partial path may now reach its goal: search it again
	// from where the agent stands (Plan, or a Queue request). The cells up
	// to the break are kept, so the agent may go on walking meanwhile.
	Broken
)

var mendNames = [...]string{"intact", "mended", "broken"}

func (m Mend) String() string {
	if int(m) < len(mendNames) {
		return mendNames[m]
	}
	return fmt.Sprintf("mend(%d)", m)
}

// Repair checks p after an edit of its grid that changed the cells of the
// rectangle changed, and mends what the edit broke. A step of the path
// ahead of the agent that touches the rectangle (grown by one cell, for the
// corners of diagonal steps) and is no longer a legal move is broken; the
// stretch from the first broken step to the last is searched again, from
// the cell before it to the cell after it, and spliced in. Cells the edit
// freed leave a path as it is (it may no longer be the shortest), except
// that a Partial path whose goal could not be reached is reported Broken
// when it has become reachable, so that it can be searched again.
//
// The check costs O(path ahead); a mend one search of at most
// RepairExpansions nodes. It allocates only when the path outgrows its
// slices.
func (pl *Planner) Repair(p *Path, changed image.Rectangle) Mend {
	n := len(p.cells)
	if n == 0 || p.g != pl.g {
		return Intact
	}
	f := p.filter
	if p.status == Partial && p.cutOff && pl.g.Connected(p.cells[p.at], p.goal) {
		return Broken
	}
	area := changed.Inset(-1)
	first, last := -1, -1
	for i := p.at; i+1 < n; i++ {
		a, b := p.cells[i], p.cells[i+1]
		if !a.In(area) && !b.In(area) {
			continue
		}
		if !f.CanStep(pl.g, a, b) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	if first < 0 {
		if n == 1 && !f.Passable(pl.g, p.cells[0]) {
			return Broken
		}
		return Intact
	}
	s, t := p.cells[first], p.cells[last+1]
	if !f.Passable(pl.g, s) || !f.Passable(pl.g, t) || (f == nil && !pl.g.Connected(s, t)) {
		return Broken // the agent's cell or the end was walled in, or cut off
	}
	q := pl.Query
	q.Filter = f
	q.MaxExpansions = pl.RepairExpansions
	if q.MaxExpansions <= 0 {
		q.MaxExpansions = 4096
	}
	var res grid.Result
	var err error
	pl.buf, res, err = pl.s.AppendPath(pl.buf[:0], s, t, q)
	if err != nil || res.Status != core.Found {
		return Broken
	}
	pl.buf = append(pl.buf, p.cells[last+2:]...)
	p.cells = append(p.cells[:first], pl.buf...)
	return Mended
}
