package grid

import (
	"fmt"
	"image"
	"math"
	"math/bits"

	"github.com/cairn-nav/cairn/core"
)

// Heuristic selects the estimate a grid query uses.
type Heuristic uint8

// The heuristics, with what each guarantees. Terrain multipliers are at
// least 1, so an estimate admissible on unit terrain stays admissible.
const (
	// Auto is the octile distance on 8-connected grids and the Manhattan
	// distance on 4-connected ones: admissible and consistent, and exact on
	// an open grid of unit terrain.
	Auto Heuristic = iota
	// Zero turns the search into Dijkstra's algorithm.
	Zero
	// OctileDistance is max(dx, dy) + (√2−1)·min(dx, dy): admissible and
	// consistent on both connectivities, exact on an open 8-connected grid,
	// and weaker than ManhattanDistance on a 4-connected one.
	OctileDistance
	// ManhattanDistance is dx + dy: admissible, consistent and exact on an open
	// 4-connected grid; on an 8-connected one it overestimates diagonal
	// runs, so the search usually expands fewer cells but its paths may be longer
	// than optimal (Result.Cost is still their true cost).
	ManhattanDistance
	// EuclideanDistance is √(dx² + dy²): admissible and consistent on both
	// connectivities, and weaker than OctileDistance.
	EuclideanDistance
	// ChebyshevDistance is max(dx, dy): admissible and consistent on both
	// connectivities, and weaker than OctileDistance.
	ChebyshevDistance
	numHeuristics
)

var heuristicNames = [numHeuristics]string{"auto", "zero", "octile", "manhattan", "euclidean", "chebyshev"}

func (h Heuristic) String() string {
	if h < numHeuristics {
		return heuristicNames[h]
	}
	return fmt.Sprintf("Heuristic(%d)", uint8(h))
}

// Query tunes one grid search. The zero value is optimal A* with the [Auto]
// heuristic and no budget.
type Query struct {
	Heuristic Heuristic
	// Weight multiplies the heuristic (values below 1 mean 1); the path is
	// then at most Weight times longer than optimal.
	Weight float64
	// MaxExpansions caps the expansions (0: no cap). A search that hits the
	// cap returns status [core.BudgetSpent] and a partial path to the cell
	// nearest the goal by the heuristic.
	MaxExpansions int
	// Plain expands every neighbour of every cell. By default, queries on
	// 8-connected grids without terrain costs use jump point search, which
	// finds paths of the same optimal cost while expanding far fewer cells
	// (only the jump points, which OnExpand and Result.Expanded then count).
	// Its jumps read a table of where each straight and diagonal run stops
	// (JPS+), which the grid builds at its first jump point search
	// (O(cells), 10 bytes a cell, kept up to date by edits), except on
	// grids where the scans are too short for it to pay.
	Plain bool
	// Scan makes jump point search scan the rows and columns a word of
	// cells at a time instead of reading the table, as it does where the
	// table does not pay: the same paths and expansions, and no table is
	// built for the query. It is there to measure what the table gives.
	Scan bool
	// Filter, when not nil, weights and excludes cells by area type, or
	// lets the query through blocked cells of some areas (see [Filter]):
	// the search is then plain A*, and a goal the filter cuts off costs a
	// search of all the cells the start reaches.
	Filter *Filter
	// Size, above 1, searches for a unit of Size×Size cells standing on
	// the square whose top-left cell is its anchor, the cell a path names
	// (clearance-based pathfinding): an anchor is legal where
	// [Grid.Clearance] is at least Size, a diagonal move keeps both side
	// anchors legal, and with terrain costs an anchor's multiplier is the
	// largest of its square's, so that the paths and costs are those of a
	// search of [Grid.Sized](Size), read from this grid's own cells. The
	// search is then plain A*, and a goal the unit cannot reach costs a
	// search of all the anchors the start reaches (Sized's grid has its
	// own regions). 0 and 1 mean a unit of one cell; Size does not go with
	// a Filter ([Grid.Derived] serves both).
	Size int
	// OnExpand, when not nil, receives each expanded cell in order with its
	// cost from the start.
	OnExpand func(p image.Point, g float64)
}

// Result describes a grid search.
type Result struct {
	// Status is core.Found, core.Unreachable or core.BudgetSpent.
	Status core.Status
	// Cost is the exact cost of the returned path.
	Cost float64
	// Expanded counts the cells expanded; 0 when regions alone showed the
	// goal unreachable.
	Expanded int
	// End is the last cell of the returned path: the goal when Found, the
	// end of the partial path when BudgetSpent.
	End image.Point
}

// graph presents a Grid to the core search; nodes are padded cell indices.
type graph Grid

var baseCost = [numDirs]float64{1, 1, 1, 1, math.Sqrt2, math.Sqrt2, math.Sqrt2, math.Sqrt2}

func (gr *graph) NumNodes() int { return len(gr.free) }

func (gr *graph) AppendEdges(dst []core.Edge, n int32) []core.Edge {
	m := gr.moves[n]
	if gr.cost == nil {
		for m != 0 {
			d := bits.TrailingZeros8(m)
			m &= m - 1
			dst = append(dst, core.Edge{To: n + gr.off[d], Cost: baseCost[d]})
		}
		return dst
	}
	cn := gr.cost[n]
	for m != 0 {
		d := bits.TrailingZeros8(m)
		m &= m - 1
		to := n + gr.off[d]
		dst = append(dst, core.Edge{To: to, Cost: baseCost[d] * (cn + gr.cost[to]) / 2})
	}
	return dst
}

// distance is the octile or Manhattan distance to a goal cell, in padded
// coordinates.
type distance struct {
	pw     int32
	gx, gy int32
	kind   Heuristic // OctileDistance, ManhattanDistance, EuclideanDistance or ChebyshevDistance
	scale  float64   // below 1 under a Filter with cost multipliers below 1; else 1
}

func (h *distance) Estimate(n int32) float64 {
	y := n / h.pw
	x := n - y*h.pw
	dx, dy := x-h.gx, y-h.gy
	if dx < 0 {
		dx = -dx
	}
	if dy < 0 {
		dy = -dy
	}
	if dx < dy {
		dx, dy = dy, dx
	}
	var d float64
	switch h.kind {
	case ManhattanDistance:
		d = float64(dx + dy)
	case EuclideanDistance:
		d = math.Sqrt(float64(dx)*float64(dx) + float64(dy)*float64(dy))
	case ChebyshevDistance:
		d = float64(dx)
	default:
		d = float64(dx) + (math.Sqrt2-1)*float64(dy)
	}
	return d * h.scale
}

// Searcher answers path queries on one grid and owns the scratch memory of
// its searches. It is not safe for concurrent use; give each goroutine its
// own. After its buffers have grown, a query allocates nothing but what it
// appends to the caller's slice (and nothing when that slice has room).
type Searcher struct {
	query
	s        *core.Searcher
	searched bool // the latest query ran a search (not settled by regions or an error)
}

// query is what a Searcher and a Sliced share: the grid seen by the core
// search, the heuristic, and the conversion of results into cells.
type query struct {
	g        *Grid
	q        queryGraph
	h        distance
	ids      []int32
	onExpand func(p image.Point, g float64)
	expandFn func(n int32, g float64)
}

// init sets c up for g and returns the graph the core searches; caller
// names the constructor in the panic of a nil g.
func (c *query) init(g *Grid, caller string) *queryGraph {
	if g == nil {
		panic("grid: " + caller + " of a nil grid")
	}
	c.g = g
	c.q.g = g
	c.h = distance{pw: int32(g.pw), scale: 1}
	c.expandFn = c.expand
	return &c.q
}

// NewSearcher returns a searcher for g. Its scratch takes about 16 bytes per
// cell. It panics when g is nil.
func NewSearcher(g *Grid) *Searcher {
	s := &Searcher{}
	s.s = core.NewSearcher(s.init(g, "NewSearcher"))
	return s
}

func (c *query) expand(n int32, g float64) { c.onExpand(c.g.pxy(n), g) }

// Grid returns the grid the searcher works on.
func (c *query) Grid() *Grid { return c.g }

func (g *Grid) checkEnd(p image.Point, what string) error {
	if !g.In(p) {
		return fmt.Errorf("grid: %s (%d,%d) is outside the %d×%d grid", what, p.X, p.Y, g.w, g.h)
	}
	if !g.free[g.pidx(p.X, p.Y)] {
		return fmt.Errorf("grid: %s (%d,%d) is a blocked cell", what, p.X, p.Y)
	}
	return nil
}

// setup checks a query's ends and prepares the core search: its start and
// goal nodes, heuristic and options. ok is false when regions alone show the
// goal unreachable.
func (c *query) setup(from, to image.Point, q Query) (start, goal int32, h core.Heuristic, opt core.Query, ok bool, err error) {
	g := c.g
	c.q.filter.f = nil
	c.q.size = 0
	c.h.scale = 1
	regions := true
	if q.Size > 1 || q.Size < 0 {
		if regions, err = c.setupSize(q, from, to); err != nil {
			return 0, 0, nil, opt, false, err
		}
	} else if q.Filter != nil {
		if c.h.scale, regions, err = c.setupFilter(q.Filter, from, to); err != nil {
			return 0, 0, nil, opt, false, err
		}
	} else {
		if err := g.checkEnd(from, "start"); err != nil {
			return 0, 0, nil, opt, false, err
		}
		if err := g.checkEnd(to, "goal"); err != nil {
			return 0, 0, nil, opt, false, err
		}
	}
	if q.Heuristic >= numHeuristics {
		return 0, 0, nil, opt, false, fmt.Errorf("grid: unknown heuristic %d", uint8(q.Heuristic))
	}
	if regions && !g.Connected(from, to) {
		return 0, 0, nil, opt, false, nil
	}
	start, goal = int32(g.pidx(from.X, from.Y)), int32(g.pidx(to.X, to.Y))
	opt = core.Query{Weight: q.Weight, MaxExpansions: q.MaxExpansions}
	c.onExpand = q.OnExpand
	if q.OnExpand != nil {
		opt.OnExpand = c.expandFn
	}
	if q.Heuristic != Zero {
		c.h.gx, c.h.gy = int32(to.X+1), int32(to.Y+1)
		c.h.kind = q.Heuristic
		if q.Heuristic == Auto {
			c.h.kind = OctileDistance
			if g.conn == Four {
				c.h.kind = ManhattanDistance
			}
		}
		h = &c.h
	}
	c.q.goal = goal
	c.q.gx, c.q.gy = to.X+1, to.Y+1
	c.q.jump = !q.Plain && g.conn == Eight && g.cost == nil && q.Filter == nil && c.q.size == 0
	c.q.jumps = nil
	if c.q.jump && !q.Scan {
		c.q.jumps = g.jumpTable() // nil where it does not pay
	}
	return start, goal, h, opt, true, nil
}

// result converts a core result and its path of nodes (jump points or
// cells) into a Result and appends the path's cells to dst.
func (c *query) result(dst []image.Point, r core.Result, from image.Point, ids []int32) ([]image.Point, Result) {
	g := c.g
	res := Result{Status: r.Status, Cost: r.Cost, Expanded: r.Expanded, End: from}
	if r.End < 0 || len(ids) == 0 {
		return dst, res
	}
	res.End = g.pxy(r.End)
	n := len(dst)
	dst = append(dst, g.pxy(ids[0]))
	for i := 1; i < len(ids); i++ {
		// Jump point runs are straight or diagonal lines, or a diagonal
		// run then a straight one: fill them in, diagonal steps first.
		dst = g.appendRun(dst, ids[i-1], ids[i])
	}
	if g.cost == nil && c.q.filter.f == nil {
		// Count the steps for a cost free of accumulated rounding.
		var straight, diag int
		for i := n + 1; i < len(dst); i++ {
			if dst[i].X != dst[i-1].X && dst[i].Y != dst[i-1].Y {
				diag++
			} else {
				straight++
			}
		}
		res.Cost = float64(straight) + float64(diag)*math.Sqrt2
	}
	return dst, res
}

// AppendPath finds a path from one cell to another and appends its cells,
// from and to included, to dst. A goal in another connected region is
// answered at once with status [core.Unreachable] and nothing appended. A
// start or goal outside the grid or on a blocked cell is an error.
//
// The search is A* with the query's heuristic, ties broken toward larger
// cost-so-far; its cost is O(E log V) in the cells it touches.
//
// The query holds off [Grid.SetCells] while it runs, so it sees one version
// of the grid.
func (s *Searcher) AppendPath(dst []image.Point, from, to image.Point, q Query) ([]image.Point, Result, error) {
	s.g.mu.RLock()
	defer s.g.mu.RUnlock()
	s.searched = false
	start, goal, h, opt, ok, err := s.setup(from, to, q)
	if err != nil {
		return dst, Result{}, err
	}
	if !ok {
		return dst, Result{Status: core.Unreachable, End: from}, nil
	}
	s.searched = true
	r := s.s.Search(start, goal, h, opt)
	s.onExpand = nil
	s.ids = s.s.AppendPath(s.ids[:0], r.End)
	dst, res := s.result(dst, r, from, s.ids)
	return dst, res, nil
}

// AppendOpen appends the cells left on the open list by the latest query,
// for pictures of the search frontier; nothing when that query ran no
// search (an error, or a goal shown unreachable by regions alone).
func (s *Searcher) AppendOpen(dst []image.Point) []image.Point {
	if !s.searched {
		return dst
	}
	s.ids = s.s.AppendOpen(s.ids[:0])
	for _, id := range s.ids {
		dst = append(dst, s.g.pxy(id))
	}
	return dst
}

// Sliced is a grid query spread over several calls, for games that give
// pathfinding a few expansions per frame: [Sliced.Begin] starts it,
// [Sliced.Step] expands a bounded number of nodes, and [Sliced.AppendPath]
// gives the path once Step reports the end (or the best partial path before
// that). It owns its scratch, so it never disturbs a [Searcher] or another
// Sliced on the same grid; it is not safe for concurrent use.
//
// Each call holds off [Grid.SetCells] while it runs. A query whose grid was
// edited since Begin starts again at its next Step, on the edited grid: the
// work before is lost, and a start or goal the edit blocked ends the query
// as [core.Unreachable]. AppendPath gives the path on the version of the
// grid its search ran on.
type Sliced struct {
	query
	s       *core.Sliced
	from    image.Point
	to      image.Point
	q       Query
	version uint64      // of the grid the search runs on
	status  core.Status // of a query settled by Begin alone
	active  bool
}

// NewSliced returns a time-sliced searcher for g; its scratch takes about 16
// bytes per cell. It panics when g is nil.
func NewSliced(g *Grid) *Sliced {
	s := &Sliced{}
	s.s = core.NewSliced(s.init(g, "NewSliced"))
	return s
}

// Begin starts a query, dropping any in progress. Errors are those of
// [Searcher.AppendPath]; a goal in another region settles the query at once
// as unreachable.
func (s *Sliced) Begin(from, to image.Point, q Query) error {
	s.g.mu.RLock()
	defer s.g.mu.RUnlock()
	return s.begin(from, to, q)
}

func (s *Sliced) begin(from, to image.Point, q Query) error {
	start, goal, h, opt, ok, err := s.setup(from, to, q)
	s.from, s.to, s.q, s.active = from, to, q, false
	s.version = s.g.Version()
	switch {
	case err != nil:
		s.status = core.NotSearched
		return err
	case !ok:
		s.status = core.Unreachable
		return nil
	}
	s.s.Begin(start, goal, h, opt)
	s.active = true
	return nil
}

// Step expands at most n nodes (cells, or jump points) and returns
// [core.InProgress] while the search goes on, else its final status.
func (s *Sliced) Step(n int) core.Status {
	s.g.mu.RLock()
	defer s.g.mu.RUnlock()
	if s.active && s.g.Version() != s.version {
		if err := s.begin(s.from, s.to, s.q); err != nil {
			s.status = core.Unreachable // an end was blocked
		}
	}
	if !s.active {
		return s.status
	}
	return s.s.Step(n)
}

// Expanded returns the nodes expanded by the query since it began (or
// since it last started again on an edited grid): what a caller that gives
// the search a budget of expansions per frame charges it. It is 0 for a
// query that Begin settled. It does not allocate.
func (s *Sliced) Expanded() int {
	if !s.active {
		return 0
	}
	return s.s.Result().Expanded
}

// AppendPath appends the path found so far and returns its Result: the
// whole path once Step has returned core.Found, a partial path toward the
// goal while the search is in progress or after its budget ran out, and
// nothing when the goal is unreachable.
func (s *Sliced) AppendPath(dst []image.Point) ([]image.Point, Result) {
	s.g.mu.RLock()
	defer s.g.mu.RUnlock()
	if !s.active {
		return dst, Result{Status: s.status, End: s.from}
	}
	r := s.s.Result()
	s.ids = s.s.AppendPath(s.ids[:0], r.End)
	return s.result(dst, r, s.from, s.ids)
}

// appendRun appends the cells after a up to b, both padded indices: as many
// diagonal steps as the smaller displacement, then straight steps.
func (g *Grid) appendRun(dst []image.Point, a, b int32) []image.Point {
	pa, pb := g.pxy(a), g.pxy(b)
	dx, dy := pb.X-pa.X, pb.Y-pa.Y
	sx, sy := int(sign(int32(dx))), int(sign(int32(dy)))
	diag := min(abs(dx), abs(dy))
	p := pa
	for range diag {
		p = p.Add(image.Pt(sx, sy))
		dst = append(dst, p)
	}
	if abs(dx) > diag {
		sy = 0
	} else {
		sx = 0
	}
	for p != pb {
		p = p.Add(image.Pt(sx, sy))
		dst = append(dst, p)
	}
	return dst
}
