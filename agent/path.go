package agent

import (
	"image"
	"math"
	"slices"
	"strconv"

	"github.com/cairn-nav/cairn/grid"
	"github.com/go-gl/mathgl/mgl64"
)

// Status says where a [Path] stands.
type Status uint8

const (
	// Idle: no path has been asked for.
	Idle Status = iota
	// Queued: a request for the path waits in a [Queue] or is being
	// searched. The cells of the path before the request, if any, are
	// still there to follow.
	Queued
	// Following: the path leads to its goal.
	Following
	// Partial: the goal cannot be reached (or is blocked); the path leads to
	// the reachable cell nearest to it.
	Partial
	// NoPath: there is no path to follow: the goal cannot be reached and
	// partial paths were not wanted, or the start is blocked.
	NoPath
)

var statusNames = [...]string{"idle", "queued", "following", "partial", "no path"}

func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return "status(" + strconv.Itoa(int(s)) + ")"
}

// Path is the path of one agent: its cells, from the cell where its search
// started to its end, and how far along them the agent is. The zero Path
// is Idle and empty; a [Planner] or a [Queue] fills it, and [Path.Steer]
// follows it.
//
// A Path is not safe for concurrent use. It keeps its cell slice from one
// search to the next, so a warm agent plans and follows without
// allocating.
type Path struct {
	// Lookahead is how far along the path, in cells of path length from the
	// agent's cell, Steer looks for a target: longer gives straighter
	// motion, at O(Lookahead²) cell reads a call. Values below 1 mean 1
	// (the next cell).
	Lookahead float64
	// Arrive is the distance from the centre of the last cell within which
	// Steer reports arrival; values ≤ 0 mean 0.05.
	Arrive float64

	g      *grid.Grid
	filter *grid.Filter // of the search that made the path, nil for none
	cells  []image.Point
	at     int // the index of the path cell the agent was last seen in
	goal   image.Point
	status Status
	err    error // of the last search, for NoPath
	lost   bool
	// cutOff is set on a Partial path whose goal could not be reached
	// (not one a search's budget cut short): a Repair sends it back to be
	// searched when an edit joins it to its goal.
	cutOff bool
	// What a Request replaced, for Cancel to give back.
	prevStatus Status
	prevGoal   image.Point

	// Queue bookkeeping: the pending request, and the Path's place in the
	// queue's heap (-1 when not queued).
	q        *Queue
	qi       int
	prio     int
	seq      uint64
	from, to image.Point
}

// Status returns where the path stands.
func (p *Path) Status() Status { return p.status }

// Err returns the error of the search that left the path NoPath (a start
// or goal off the grid, or a blocked start), or nil.
func (p *Path) Err() error { return p.err }

// Goal returns the goal the path was last asked for.
func (p *Path) Goal() image.Point { return p.goal }

// End returns the last cell of the path: its goal when Following, the
// reachable cell nearest the goal when Partial. It is the zero point for
// an empty path.
func (p *Path) End() image.Point {
	if len(p.cells) == 0 {
		return image.Point{}
	}
	return p.cells[len(p.cells)-1]
}

// Cells returns the cells still ahead of the agent: from the path cell it
// was last seen in to the end. The slice is the Path's own and valid until
// the path changes; do not modify it.
func (p *Path) Cells() []image.Point { return p.cells[p.at:] }

// Grow makes room in p for paths of n cells, so that searches of paths up
// to that length, and the splices of repairs and goal moves, do not
// allocate: a game calls it as it spawns its agents. It keeps p's cells.
func (p *Path) Grow(n int) {
	p.cells = slices.Grow(p.cells, max(n-len(p.cells), 0))
}

// Lost reports whether the last [Path.Steer] found the agent off its path,
// at the centre of its cell, with no cell of the path ahead in sight: the
// path must be searched again from where the agent stands.
func (p *Path) Lost() bool { return p.lost }

// set makes cells (which the Path then owns) the path, from its start,
// searched with filter f.
func (p *Path) set(g *grid.Grid, f *grid.Filter, cells []image.Point, goal image.Point, st Status) {
	p.g, p.filter, p.cells, p.goal, p.status, p.at, p.lost, p.err, p.cutOff = g, f, cells, goal, st, 0, false, nil, false
}

// Centre returns the centre of cell c, the point an agent in c heads for.
func Centre(c image.Point) mgl64.Vec2 { return mgl64.Vec2{float64(c.X) + 0.5, float64(c.Y) + 0.5} }

// CellOf returns the cell that holds the continuous point v.
func CellOf(v mgl64.Vec2) image.Point {
	return image.Pt(int(math.Floor(v.X())), int(math.Floor(v.Y())))
}

// Steer returns the point an agent at pos should move toward, and whether
// it has arrived at the end of its path. The target is the centre of the
// farthest cell of the path within Lookahead ahead of the agent's cell to
// which the straight segment from pos is free ([grid.Grid.SegmentFree], or
// [grid.Filter.SegmentFree] for a path searched with a filter).
// When no such cell is in sight (the agent was pushed off the path, or an
// edit broke it), the target is the centre of the agent's own cell, which
// is always in sight, and once the agent stands there with nothing in
// sight the path is [Path.Lost].
//
// An agent that moves straight toward its target by no more than its
// distance to it never enters a blocked cell nor crosses between two
// blocked cells that meet at a corner, whatever its speed and Lookahead:
// the whole segment to the target is free. The target only moves forward
// along the path as the agent advances, since a cell in sight stays in
// sight along the segment toward it. On arrival the target is the centre
// of the last cell. An empty path returns pos and true (there is nowhere
// to go).
//
// It reads O(Lookahead²) cells, and the grid as [grid.Grid.SegmentFree]
// does (between edits, or under the grid's read lock); it does not
// allocate.
func (p *Path) Steer(pos mgl64.Vec2) (target mgl64.Vec2, done bool) {
	n := len(p.cells)
	if n == 0 {
		return pos, true
	}
	look := max(p.Lookahead, 1)
	c := CellOf(pos)
	// Find the agent's cell among the next cells: the window reaches past
	// the targets Steer hands out, so an agent walking toward one finds
	// itself again when it gets there.
	for i, l := p.at, 0.0; i < n && l <= look+2; i++ {
		if p.cells[i] == c {
			p.at = i
			break
		}
		if i+1 < n {
			l += stepLength(p.cells[i], p.cells[i+1])
		}
	}
	last := n - 1
	if p.at == last {
		goal := Centre(p.cells[last])
		arrive := p.Arrive
		if arrive <= 0 {
			arrive = 0.05
		}
		p.lost = false
		return goal, pos.Sub(goal).Len() <= arrive
	}
	best := -1
	for j, l := p.at+1, 0.0; j <= last; j++ {
		l += stepLength(p.cells[j-1], p.cells[j])
		if l > look && j > p.at+1 {
			break
		}
		if p.filter.SegmentFree(p.g, pos, Centre(p.cells[j])) {
			best = j
		}
	}
	if best >= 0 {
		p.lost = false
		return Centre(p.cells[best]), false
	}
	home := Centre(c)
	p.lost = pos.Sub(home).Len() < 1e-9
	return home, false
}

// stepLength is the length of one step between neighbouring cells.
func stepLength(a, b image.Point) float64 {
	if a.X != b.X && a.Y != b.Y {
		return math.Sqrt2
	}
	return 1
}
