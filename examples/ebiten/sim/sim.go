// Package sim is the headless logic of the Ebitengine example: a grid world,
// a group of units, the commands a player gives (select units, send them
// to a cell, draw or erase a wall rectangle) and one tick of the game,
// [World.Update]. It does not import Ebitengine, so it builds and is tested
// anywhere; package main reads the mouse and keys and draws it.
//
// Coordinates are those of package grid: cell (x, y) covers
// [x, x+1) × [y, y+1), its centre is (x+0.5, y+0.5), and a unit stands in
// the cell that holds its position. Speeds are in cells a tick.
//
// Paths come from Cairn's agent layer: each unit owns an [agent.Path]; a
// [agent.Queue] runs the units' searches under a per-tick [agent.Budget];
// units move straight toward the targets of [agent.Path.Steer], by at most
// their speed a tick, so they never enter a blocked cell. A wall is an
// in-place edit of the grid ([grid.Grid.SetCells]), followed by
// [hpa.Graph.Update] of the long-route graph and [agent.Planner.Repair] of
// every unit's path; the paths it breaks beyond repair are searched again
// through the queue.
//
// A World is not safe for concurrent use: the game calls its commands and
// Update from the goroutine that runs its frames.
package sim

import (
	"errors"
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/go-gl/mathgl/mgl64"
)

// Defaults of the zero [Options].
const (
	DefaultUnits     = 20
	DefaultSpeed     = 0.35
	DefaultLookahead = 4
	DefaultBudget    = 8192
)

// Options tunes a World. The zero value gives [DefaultUnits] units that
// walk [DefaultSpeed] cells a tick, look [DefaultLookahead] cells ahead along
// their paths, and share a budget of [DefaultBudget] search expansions a
// tick.
type Options struct {
	// Units is the number of units, spawned in a blob; 0 means DefaultUnits.
	Units int
	// Speed is how far a unit moves in one tick, in cells; 0 means
	// DefaultSpeed. It must be below 1000.
	Speed float64
	// Lookahead is the steering's lookahead along the path, in cells
	// ([agent.Path.Lookahead]); 0 means DefaultLookahead.
	Lookahead float64
	// Budget bounds the path searches of one tick ([agent.Queue.Run]);
	// the zero value means Expansions: DefaultBudget. A game may add a
	// Time; tests should not, to stay deterministic.
	Budget agent.Budget
}

// Unit is one unit of the world. Package main reads it to draw; only the
// World changes it.
type Unit struct {
	pos      mgl64.Vec2
	path     agent.Path
	goal     image.Point
	selected bool
	arrived  bool
}

// Pos returns the unit's position.
func (u *Unit) Pos() mgl64.Vec2 { return u.pos }

// Cell returns the cell the unit stands in.
func (u *Unit) Cell() image.Point { return agent.CellOf(u.pos) }

// Path returns the unit's path, to draw it (its Cells and Status); do not
// change it.
func (u *Unit) Path() *agent.Path { return &u.path }

// Goal returns the cell the unit was last sent to: its place in the group's
// blob around the clicked cell.
func (u *Unit) Goal() image.Point { return u.goal }

// Selected reports whether the next [World.Send] sends the unit.
func (u *Unit) Selected() bool { return u.selected }

// Arrived reports whether the unit has reached the end of its path (its
// goal, or the reachable cell nearest to it when the goal cannot be
// reached) and stands there.
func (u *Unit) Arrived() bool { return u.arrived }

// Waiting reports whether the unit is waiting for its path search to finish;
// it stands still meanwhile.
func (u *Unit) Waiting() bool { return u.path.Status() == agent.Queued }

// Stats counts what a World has done since it was made.
type Stats struct {
	Ticks    int // calls of Update
	Requests int // path searches asked of the queue
	Expanded int // nodes the queue's searches expanded
	Edits    int // walls drawn or erased that changed the grid
	Mended   int // paths an edit broke that Repair mended in place
	Broken   int // paths an edit broke that were searched again
	Lost     int // units that lost sight of their path and searched again
}

// World is the game state: the grid, the long-route graph, the units, and
// the searchers that serve them.
type World struct {
	g       *grid.Grid
	h       *hpa.Graph
	hs      *hpa.Searcher
	queue   *agent.Queue
	planner *agent.Planner
	budget  agent.Budget
	speed   float64
	units   []Unit
	stats   Stats

	// search holds the cells the latest queue search expanded, in order.
	search []image.Point

	// route is the group's long route as HPA* finds it, from the unit
	// routeUnit (the selected unit nearest the group's centre when it was
	// sent) to routeTo; abstract is the route's abstract path.
	route, abstract []image.Point
	routeUnit       int
	routeTo         image.Point

	// Breadth-first scratch for blobs of cells: mark[i] == stamp marks
	// cell i seen.
	mark  []uint32
	stamp uint32
	blob  []image.Point
	taken []bool

	one [1]image.Rectangle // the rectangle of Wall and Erase
}

// New makes a world on g with the units spawned in a blob of free cells
// around spawn (the free cell nearest to it when it is blocked or off the
// map), all selected, and builds g's HPA* graph. The world edits g in place
// from then on. It is an error when g is nil, when the options are out of
// range, or when g has no free cell.
func New(g *grid.Grid, spawn image.Point, opt Options) (*World, error) {
	if g == nil {
		return nil, errors.New("sim: nil grid")
	}
	if opt.Units == 0 {
		opt.Units = DefaultUnits
	}
	if opt.Speed == 0 {
		opt.Speed = DefaultSpeed
	}
	if opt.Lookahead == 0 {
		opt.Lookahead = DefaultLookahead
	}
	if opt.Budget == (agent.Budget{}) {
		opt.Budget.Expansions = DefaultBudget
	}
	switch {
	case opt.Units < 0:
		return nil, fmt.Errorf("sim: %d units, want 1 or more", opt.Units)
	case !(opt.Speed > 0 && opt.Speed < 1000):
		return nil, fmt.Errorf("sim: speed %v, want a number in (0, 1000)", opt.Speed)
	case !(opt.Lookahead >= 1 && opt.Lookahead <= 1000):
		return nil, fmt.Errorf("sim: lookahead %v, want a number in [1, 1000]", opt.Lookahead)
	case opt.Budget.Expansions < 0 || opt.Budget.Time < 0:
		return nil, fmt.Errorf("sim: budget %+v, want no negative field", opt.Budget)
	}
	start, ok := g.NearestFree(spawn)
	if !ok {
		return nil, errors.New("sim: the map has no free cell")
	}
	h, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		return nil, fmt.Errorf("sim: %w", err)
	}
	w := &World{
		g:       g,
		h:       h,
		hs:      hpa.NewSearcher(h),
		queue:   agent.NewQueue(g),
		planner: agent.NewPlanner(g),
		budget:  opt.Budget,
		speed:   opt.Speed,
		units:   make([]Unit, opt.Units),
		mark:    make([]uint32, g.Width()*g.Height()),
		taken:   make([]bool, opt.Units),
		// No route until the first Send.
		routeUnit: -1,
	}
	// A goal cut off from a unit still gets it as near as it can.
	w.queue.Partial, w.planner.Partial = true, true
	w.queue.Query.OnExpand = w.onExpand
	// Room for paths of a few map sides, so that walking and repairing
	// allocate nothing once the searches have warmed up.
	room := max(1024, 4*(g.Width()+g.Height()))
	cells := w.fill(start, opt.Units)
	for i := range w.units {
		u := &w.units[i]
		// A map whose region holds fewer cells than units stacks the rest.
		c := cells[i%len(cells)]
		u.pos, u.goal, u.selected, u.arrived = agent.Centre(c), c, true, true
		u.path.Lookahead = opt.Lookahead
		u.path.Grow(room)
	}
	w.search = make([]image.Point, 0, 4096)
	return w, nil
}

// Grid returns the world's grid. Read it between calls of the world's
// methods; change it only through [World.Wall] and [World.Erase].
func (w *World) Grid() *grid.Grid { return w.g }

// Graph returns the world's HPA* graph, kept up to date with the grid.
func (w *World) Graph() *hpa.Graph { return w.h }

// Units returns the units. The slice is the world's own: read it, do not
// change it.
func (w *World) Units() []Unit { return w.units }

// Stats returns the counts of what the world has done.
func (w *World) Stats() Stats { return w.stats }

// Waiting returns the number of path searches waiting or in progress.
func (w *World) Waiting() int { return w.queue.Len() }

// Search returns the cells the latest path search of the queue expanded,
// in order (jump points, under jump point search), finished or still in
// progress. The slice is the world's own and valid until the next Update.
func (w *World) Search() []image.Point { return w.search }

// Route returns the group's long route from its last [World.Send], as the
// HPA* graph finds it from the unit nearest the group's centre then (from
// where that unit stood when the route was last found) to the clicked
// cell, and its abstract path: the transition cells between clusters it
// crosses. Both are empty when the clicked cell cannot be reached, and
// recomputed after each edit. The slices are the world's own.
func (w *World) Route() (cells, abstract []image.Point) { return w.route, w.abstract }

// Update advances the world one tick: the queue's searches run within the
// budget, then every unit that has a path and has not arrived moves toward
// its steering target by at most its speed. A unit whose search has not
// finished stands still, and one that has lost sight of its path asks for a
// new one from where it stands.
//
// Once the searches' scratch and the paths have grown (after the first
// trips), a tick does not allocate.
func (w *World) Update() {
	w.stats.Ticks++
	exp, _ := w.queue.Run(w.budget)
	w.stats.Expanded += exp
	for i := range w.units {
		w.step(&w.units[i])
	}
}

// step moves one unit.
func (w *World) step(u *Unit) {
	p := &u.path
	switch p.Status() {
	case agent.Idle, agent.Queued, agent.NoPath:
		return // nothing to follow yet, or nowhere to go: stand still
	}
	if u.arrived {
		return
	}
	target, done := p.Steer(u.pos)
	if done {
		u.arrived = true
		return
	}
	if p.Lost() {
		w.stats.Lost++
		w.request(u, 2)
		return
	}
	// Straight toward the target, by no more than the distance to it:
	// Steer's guarantee that the unit enters no blocked cell.
	d := target.Sub(u.pos)
	if l := d.Len(); l > w.speed {
		target = u.pos.Add(d.Mul(w.speed / l))
	}
	u.pos = target
}

// request asks the queue for a path from the unit's cell to its goal.
func (w *World) request(u *Unit, priority int) {
	u.arrived = false
	w.queue.Request(&u.path, u.Cell(), u.goal, priority)
	w.stats.Requests++
}

// onExpand records the cells the queue's searches expand: a search starts
// by expanding its start at cost 0, which begins a new record.
func (w *World) onExpand(p image.Point, g float64) {
	if g == 0 {
		w.search = w.search[:0]
	}
	w.search = append(w.search, p)
}

// fill returns up to n free cells around start, nearest first by steps
// (breadth-first over legal moves), start first. The slice is w.blob.
func (w *World) fill(start image.Point, n int) []image.Point {
	w.stamp++
	if w.stamp == 0 { // wrapped: clear the marks once
		clear(w.mark)
		w.stamp = 1
	}
	width := w.g.Width()
	w.blob = append(w.blob[:0], start)
	w.mark[start.Y*width+start.X] = w.stamp
	for i := 0; i < len(w.blob) && len(w.blob) < n; i++ {
		c := w.blob[i]
		for d := range 8 {
			nb := c.Add(grid.Step(d))
			if !w.g.In(nb) || w.mark[nb.Y*width+nb.X] == w.stamp || !w.g.CanStep(c, nb) {
				continue
			}
			w.mark[nb.Y*width+nb.X] = w.stamp
			w.blob = append(w.blob, nb)
			if len(w.blob) == n {
				break
			}
		}
	}
	return w.blob
}
