package agent

import (
	"errors"
	"fmt"
	"image"
	"math"
	"time"

	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

// Budget bounds the work of one [Queue.Run]: a frame's share of
// pathfinding. A zero field sets no bound; the zero Budget runs the queue
// dry.
type Budget struct {
	// Expansions caps the nodes expanded (cells, or jump points). With
	// [Queue.UseGraph] a call may go over it by the one search HPA* cannot
	// split: joining a query's ends to the graph (two searches of a
	// cluster's cells), or one search inside a cluster whose table of
	// distances no query has filled yet.
	Expansions int
	// Time caps the time spent, checked between slices of at most
	// [SliceExpansions] expansions, so a call may overrun it by one slice
	// (on open 4096² maps without the JPS+ table, where one expansion may
	// scan thousands of cells, a slice takes up to a few ms).
	Time time.Duration
}

// SliceExpansions is the most expansions [Queue.Run] gives a search
// between two looks at the clock, when its Budget has a Time.
const SliceExpansions = 32

// Queue spreads the path searches of many agents over frames. Each agent's
// [Path] has at most one request waiting; requests run one at a time,
// highest priority first and in the order they came among equals, as a
// time-sliced search ([grid.Sliced]) that [Queue.Run] advances under a
// budget and that resumes in the next call. A finished search becomes its
// Path's cells.
//
// A Queue owns a sliced searcher (about 16 bytes a cell) and is not safe
// for concurrent use. Its grid may be edited between calls: the search in
// progress then starts again on the edited grid. With [Queue.UseGraph] it
// searches an HPA* graph of its grid instead.
type Queue struct {
	Options
	g      *grid.Grid
	s      *grid.Sliced
	hs     slicedHPA // when UseGraph or UseAnnotated gave a graph
	onHPA  bool      // whether the active search is hs's
	heap   []*Path
	seq    uint64
	active *Path
	end    image.Point // of the active search
	ver    uint64      // the grid's version the active search runs on
	st     Status      // the active path's status when its search finds its end
	hexp   int         // expansions of the active HPA* query so far
	hstale bool        // the active HPA* query must begin again
	herr   error       // why the active HPA* query could not begin again, for its Path
	// Whether the active HPA* query's searches are over and its path is
	// being refined into cells.
	refining bool
	cells    []image.Point
}

// NewQueue returns an empty queue for paths on g, with the zero Options. It
// panics when g is nil.
func NewQueue(g *grid.Grid) *Queue {
	if g == nil {
		panic("agent: NewQueue of a nil grid")
	}
	return &Queue{g: g, s: grid.NewSliced(g)}
}

// UseGraph makes q answer its requests by HPA* on hg, a graph of q's grid,
// sliced as the grid's searches are ([hpa.Searcher.BeginSliced] and
// [hpa.Searcher.Step]): a long request on a 4096² map then costs some
// hundreds of expansions of the abstract graph, where the grid's search
// expands tens of thousands of jump points, for paths a few per cent longer
// (see package hpa). A request with a Query.Filter still runs on the grid,
// as HPA* knows no filters; HPA* ignores the rest of Query. After an edit
// of the grid, bring hg up to date with [hpa.Graph.Update] (in place)
// before the next Run: a request in progress then starts again, and Run
// waits while hg is out of date. A nil hg goes back to the grid. It returns
// an error, and changes nothing, when hg is not a graph of q's grid. q then
// owns an [hpa.Searcher] as well.
func (q *Queue) UseGraph(hg *hpa.Graph) error {
	if hg == nil {
		q.use(nil)
		return nil
	}
	if hg.Grid() != q.g {
		return errors.New("agent: UseGraph of a graph of another grid")
	}
	q.use(hpa.NewSearcher(hg))
	return nil
}

// UseAnnotated makes q answer its requests by HPA* on a, for units of
// class class, as UseGraph does on a graph of one class: q's grid must be
// a.Grid(class) (the source grid for the plain class, else the class's
// derived grid). After an edit of the source grid, bring a up to date with
// [hpa.Annotated.Update] before the next Run and mend the class's paths
// against [hpa.Annotated.Changed]. It returns an error, and changes
// nothing, for a class out of range or a grid of another class; a nil a
// goes back to the grid. q then owns an [hpa.AnnotatedSearcher].
func (q *Queue) UseAnnotated(a *hpa.Annotated, class int) error {
	if a == nil {
		q.use(nil)
		return nil
	}
	if class < 0 || class >= a.Len() {
		return fmt.Errorf("agent: UseAnnotated of class %d of an annotated graph of %d", class, a.Len())
	}
	if a.Grid(class) != q.g {
		return fmt.Errorf("agent: UseAnnotated of class %d, whose grid is not the queue's", class)
	}
	q.use(&annotatedClass{s: hpa.NewAnnotatedSearcher(a), class: class})
	return nil
}

// use makes s the queue's HPA* search (nil: none, the grid's search); a
// request in progress on the previous one starts again.
func (q *Queue) use(s slicedHPA) {
	q.hs = s
	if q.active != nil && q.onHPA {
		q.Request(q.active, q.active.from, q.active.to, q.active.prio) // start again on s
	}
}

// slicedHPA is the sliced HPA* query that a Queue runs: an
// [hpa.Searcher]'s, or an [hpa.AnnotatedSearcher]'s for one class.
type slicedHPA interface {
	BeginSliced(from, to image.Point, q hpa.Query) error
	Step(n int) (hpa.Result, error)
	Next(dst []image.Point, n int) ([]image.Point, hpa.Result, error)
}

// annotatedClass is an annotated graph's sliced query for one class.
type annotatedClass struct {
	s     *hpa.AnnotatedSearcher
	class int
}

func (c *annotatedClass) BeginSliced(from, to image.Point, q hpa.Query) error {
	return c.s.BeginSliced(c.class, from, to, q)
}

func (c *annotatedClass) Step(n int) (hpa.Result, error) { return c.s.Step(n) }

func (c *annotatedClass) Next(dst []image.Point, n int) ([]image.Point, hpa.Result, error) {
	return c.s.Next(dst, n)
}

// Len returns the number of requests waiting or being searched.
func (q *Queue) Len() int {
	n := len(q.heap)
	if q.active != nil {
		n++
	}
	return n
}

// Request asks for a path for p from one cell to another, with a priority
// (higher first). It replaces p's request waiting in this or another queue,
// and restarts it when it is being searched. p's status becomes Queued; the
// cells it had stay there to follow until the search ends. It costs
// O(log requests) and allocates only when the queue outgrows its slice.
func (q *Queue) Request(p *Path, from, to image.Point, priority int) {
	if p.q != nil {
		p.q.Cancel(p)
	}
	if p.status != Queued {
		p.prevStatus, p.prevGoal = p.status, p.goal
	}
	p.q, p.from, p.to, p.goal, p.prio = q, from, to, to, priority
	p.seq = q.seq
	q.seq++
	p.status = Queued
	p.g = q.g
	p.qi = len(q.heap)
	q.heap = append(q.heap, p)
	q.up(p.qi)
}

// Cancel withdraws p's request from q and reports whether it had one. The
// path keeps its cells and gets back the status and goal it had before the
// request. It costs O(log requests).
func (q *Queue) Cancel(p *Path) bool {
	if p.q != q {
		return false
	}
	if q.active == p {
		q.active = nil
	} else {
		i := p.qi
		last := len(q.heap) - 1
		q.swap(i, last)
		q.heap[last] = nil
		q.heap = q.heap[:last]
		if i < last {
			q.down(i)
			q.up(i)
		}
	}
	p.q, p.qi = nil, -1
	if p.status == Queued {
		p.status, p.goal = p.prevStatus, p.prevGoal
	}
	return true
}

// Run advances the waiting requests within budget b and returns the nodes
// it expanded and the requests it finished. Each finished request sets its
// Path's cells and status (Following, Partial or NoPath, as
// [Planner.Plan] would; a start that was blocked or off the grid leaves
// [Path.Err] set). It does not allocate once the paths' slices have grown
// to their sizes.
func (q *Queue) Run(b Budget) (expanded, finished int) {
	var t0 time.Time
	if b.Time > 0 {
		t0 = time.Now()
	}
	for {
		if q.active == nil && !q.begin() {
			return expanded, finished
		}
		n := math.MaxInt
		if b.Time > 0 {
			n = SliceExpansions
		}
		if b.Expansions > 0 {
			n = min(n, b.Expansions-expanded)
			if n <= 0 {
				return expanded, finished
			}
		}
		var st core.Status
		if q.onHPA {
			var used int
			var ok bool
			if st, used, ok = q.stepHPA(n); !ok {
				return expanded, finished // the graph is out of date
			}
			expanded += used
		} else {
			before := q.s.Expanded()
			if v := q.g.Version(); v != q.ver {
				before, q.ver = 0, v // Step starts the search again on the edited grid
			}
			st = q.s.Step(n)
			used := q.s.Expanded() - before
			if used < 0 { // an edit made the search start again
				used = q.s.Expanded()
			}
			expanded += used
		}
		if st != core.InProgress {
			q.finish(st)
			finished++
		}
		if b.Time > 0 && time.Since(t0) >= b.Time {
			return expanded, finished
		}
	}
}

// begin pops the next request and starts its search; false when none
// waits. Requests settled at once (unreachable, or bad ends) are finished
// here and the next is taken.
func (q *Queue) begin() bool {
	for len(q.heap) > 0 {
		p := q.pop()
		end, st, ok, err := resolve(q.g, &q.Options, p.from, p.to)
		q.onHPA = q.hs != nil && q.Query.Filter == nil
		if err == nil && ok {
			q.ver = q.g.Version()
			if q.onHPA {
				q.hexp, q.refining = 0, false
				err = q.hs.BeginSliced(p.from, end, hpa.Query{})
				if errors.Is(err, hpa.ErrStale) {
					err, q.hstale = nil, true // begun again once the graph is updated
				}
			} else {
				err = q.s.Begin(p.from, end, q.Query)
			}
		}
		if err != nil || !ok {
			p.q, p.qi = nil, -1
			p.set(q.g, q.Query.Filter, p.cells[:0], p.to, NoPath)
			p.err = err
			continue
		}
		q.active, q.end, q.st = p, end, st
		return true
	}
	return false
}

// stepHPA runs the active HPA* query on within about n expansions and
// returns its status and the expansions used; false when the graph is out
// of date with the grid (the query waits for its Update). It runs the
// query's searches (Step), then refines its path into q.cells a few
// abstract edges a call (Next), so that a call's work stays bounded
// whether or not the graph has kept the paths of those edges. A query
// whose grid or graph changed since it began starts again.
func (q *Queue) stepHPA(n int) (core.Status, int, bool) {
	p := q.active
	if q.hstale {
		// Ask again from the ends, as the edit may have blocked one, or
		// cut the goal off (a Partial request then heads elsewhere).
		end, st, ok, err := resolve(q.g, &q.Options, p.from, p.to)
		if err == nil && ok {
			err = q.hs.BeginSliced(p.from, end, hpa.Query{})
			if errors.Is(err, hpa.ErrStale) {
				return core.InProgress, 0, false // the graph is not updated yet
			}
		}
		if err != nil || !ok {
			q.herr = err
			return core.Unreachable, 0, true
		}
		q.end, q.st = end, st
		q.hstale, q.hexp, q.refining = false, 0, false
	}
	var res hpa.Result
	var err error
	if q.refining {
		q.cells, res, err = q.hs.Next(q.cells, max(n, 64))
	} else {
		res, err = q.hs.Step(n)
	}
	if err != nil { // the grid or the graph changed since: begin again
		q.hstale = true
		return core.InProgress, 0, true
	}
	used := res.Expanded - q.hexp
	q.hexp = res.Expanded
	if !q.refining && res.Status == core.Found {
		q.refining, q.cells = true, q.cells[:0]
		return core.InProgress, used, true
	}
	return res.Status, used, true
}

// finish makes the active search's path its Path's.
func (q *Queue) finish(st core.Status) {
	p := q.active
	q.active = nil
	p.q, p.qi = nil, -1
	if q.onHPA {
		q.refining = false
		if st != core.Found {
			p.set(q.g, nil, p.cells[:0], p.to, NoPath)
			p.err, q.herr = q.herr, nil
			return
		}
		p.set(q.g, nil, append(p.cells[:0], q.cells...), p.to, q.st)
		p.cutOff = q.st == Partial
		return
	}
	cells, res := q.s.AppendPath(p.cells[:0])
	if st == core.Found || st == core.BudgetSpent {
		p.set(q.g, q.Query.Filter, cells, p.to, statusOf(q.st, res.Status))
		p.cutOff = q.st == Partial && res.Status == core.Found
		return
	}
	p.set(q.g, q.Query.Filter, cells[:0], p.to, NoPath)
}

// The heap of waiting paths: higher priority first, then lower sequence.

func (q *Queue) less(i, j int) bool {
	a, b := q.heap[i], q.heap[j]
	if a.prio != b.prio {
		return a.prio > b.prio
	}
	return a.seq < b.seq
}

func (q *Queue) swap(i, j int) {
	q.heap[i], q.heap[j] = q.heap[j], q.heap[i]
	q.heap[i].qi, q.heap[j].qi = i, j
}

func (q *Queue) up(i int) {
	for i > 0 {
		parent := (i - 1) / 2
		if !q.less(i, parent) {
			return
		}
		q.swap(i, parent)
		i = parent
	}
}

func (q *Queue) down(i int) {
	n := len(q.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && q.less(r, l) {
			c = r
		}
		if !q.less(c, i) {
			return
		}
		q.swap(i, c)
		i = c
	}
}

func (q *Queue) pop() *Path {
	p := q.heap[0]
	last := len(q.heap) - 1
	q.swap(0, last)
	q.heap[last] = nil
	q.heap = q.heap[:last]
	q.down(0)
	return p
}
