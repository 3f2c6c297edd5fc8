package hpa

import (
	"fmt"
	"image"
	"math"

	"github.com/cairn-nav/cairn/core"
)

// Incremental queries: Begin answers up to the refinement, and Next hands
// out the cells as the refinement goes.

// Begin starts an incremental query from one cell to another: it answers
// what AppendPath answers before refining the path into cells (the ends
// joined to the graph and the abstract graph searched, or the whole path
// when a window of clusters around the ends holds one), so that an agent
// can start walking while [Searcher.Next] hands out the cells as it needs
// them. The cells Next gives, end to end, are those AppendPath gives.
//
// Its result's status is core.Found or core.Unreachable, its cost that of
// the abstract path (the final path's, up to rounding), and its expansions
// those of its searches. Errors are AppendPath's. Begin drops any
// incremental query in progress; AppendPath does too.
func (sr *Searcher) Begin(from, to image.Point, q Query) (Result, error) {
	h := sr.h
	sr.rlock()
	defer sr.runlock()
	if err := sr.restart(); err != nil {
		return Result{}, err
	}
	var err error
	sr.pending, sr.inc, err = sr.begin(sr.pending, from, to, q)
	sr.incAt = h.version
	return sr.inc, err
}

// Next appends the next cells of the path of the latest Begin to dst:
// at least n of them when n > 0 (whole refined abstract edges at a time,
// so a few more), all the rest when n ≤ 0. The first call gives the start.
// Its result's status is core.InProgress while cells remain, then
// core.Found, with the exact cost of the whole path and the expansions of
// all its searches; core.Unreachable, or core.NotSearched with no query
// begun, append nothing, and so does a sliced query whose searches Step
// has not finished (status core.InProgress). Each call's work is bounded
// by the abstract edges it refines: those of its cells, and the next one,
// whose cells wait for the next call, so that core.InProgress means cells
// remain. A graph whose grid has been edited since Begin, or that was
// updated since, gives [ErrStale]; Begin again on the updated graph.
func (sr *Searcher) Next(dst []image.Point, n int) ([]image.Point, Result, error) {
	h := sr.h
	sr.rlock()
	defer sr.runlock()
	if sr.sl.phase != slicedNone || sr.inc.Status != core.Found && sr.inc.Status != core.InProgress {
		return dst, sr.inc, nil // no path yet (a sliced query's searches go on), or none
	}
	if err := sr.fresh(); err != nil {
		return dst, Result{}, err
	}
	if sr.incAt != h.version { // the graph was updated in place since Begin
		return dst, Result{}, fmt.Errorf("%w: the graph was updated since Begin", ErrStale)
	}
	n0 := len(dst)
	dst, more := sr.take(dst, n)
	var e int
	var err error
	if more != 0 {
		dst, e, err = sr.refine(dst, more)
		sr.inc.Expanded += e
	}
	if err == nil && sr.ahead() {
		sr.pending, e, err = sr.refine(sr.pending[:0], 1)
		sr.inc.Expanded += e
	}
	if err != nil {
		sr.inc = Result{}
		return dst[:n0], Result{}, err
	}
	return dst, sr.settle(h, dst[n0:]), nil
}

// stream is the state of an incremental query, shared by [Searcher] and
// [AnnotatedSearcher]: the refinement in progress, its deepest level last
// (empty once the path is complete); the cells found but not yet handed
// out, from pendingAt on; the query's result so far; the cost of the
// cells handed out; and the version of the graph it runs on.
type stream struct {
	frames    []refineFrame
	pending   []image.Point
	pendingAt int
	inc       Result
	handed    costSum
	incAt     uint64
}

// nextEdge takes the refinement's next edge, that of its deepest frame,
// dropping the frames done: the edge from node f.path[i−1] to f.path[i];
// false when none is left. f is valid until a frame is pushed.
func (st *stream) nextEdge() (f *refineFrame, i int, ok bool) {
	for len(st.frames) > 0 {
		f := &st.frames[len(st.frames)-1]
		if f.k < len(f.path) {
			f.k++
			return f, f.k - 1, true
		}
		st.frames = st.frames[:len(st.frames)-1]
	}
	return nil, 0, false
}

// take appends to dst the cells found but not handed out, at most n of
// them when n > 0, and returns how many more cells Next must refine: 0
// for none, −1 for all the rest (n ≤ 0).
func (st *stream) take(dst []image.Point, n int) ([]image.Point, int) {
	rest := st.pending[st.pendingAt:]
	k := len(rest)
	if n > 0 {
		k = min(k, n)
	}
	dst = append(dst, rest[:k]...)
	st.pendingAt += k
	switch {
	case n <= 0:
		return dst, -1
	case k < n:
		return dst, n - k
	}
	return dst, 0
}

// ahead reports whether Next must refine the path on before it returns,
// as every cell found so far has been handed out and the refinement has
// frames left: the next cells then wait in pending (reset for them), or
// the refinement ends with none, so that the status says whether cells
// remain (an edge to the goal's own cell gives none).
func (st *stream) ahead() bool {
	if len(st.frames) == 0 || st.pendingAt < len(st.pending) {
		return false
	}
	st.pending, st.pendingAt = st.pending[:0], 0
	return true
}

// settle counts cells, just handed out on h's grid, into the cost and
// returns the query's result: core.InProgress while cells remain, then
// core.Found with the cost of the whole path.
func (st *stream) settle(h *Graph, cells []image.Point) Result {
	st.handed.add(h, cells)
	res := st.inc
	if st.pendingAt < len(st.pending) || len(st.frames) > 0 {
		res.Status = core.InProgress
	} else {
		res.Status, res.Cost = core.Found, st.handed.cost()
	}
	st.inc.Status = res.Status
	return res
}

// drop ends the incremental query.
func (st *stream) drop() {
	st.pending, st.pendingAt, st.handed = st.pending[:0], 0, costSum{}
	st.frames = st.frames[:0]
	st.inc = Result{}
}

// costSum adds up a path's cost as its cells come, as pathCost does.
type costSum struct {
	last           image.Point
	started        bool
	straight, diag int
	sum            float64 // with terrain costs
}

func (c *costSum) add(h *Graph, cells []image.Point) {
	for _, p := range cells {
		if c.started {
			switch {
			case h.costs:
				c.sum += h.g.StepCost(c.last, p)
			case p.X != c.last.X && p.Y != c.last.Y:
				c.diag++
			default:
				c.straight++
			}
		}
		c.last, c.started = p, true
	}
}

func (c *costSum) cost() float64 {
	if c.straight+c.diag > 0 {
		return float64(c.straight) + float64(c.diag)*math.Sqrt2
	}
	return c.sum
}

// The phases of a sliced query.
const (
	slicedNone     = iota // no sliced query, or its searches are over
	slicedWindow          // the direct search of the window around the ends
	slicedInsert          // joining the ends to the graph, first filling the tables they need
	slicedAbstract        // the abstract search
)

// sliced is the state of a sliced query between calls of Step.
type sliced struct {
	phase    int
	from, to image.Point
	q        Query
	top      int
	abs      *core.Sliced // on the abstract view
	// A table being filled, of level fillL's cluster fillC, up to row
	// fillRow.
	fill    *endTable
	fillL   int
	fillC   int32
	fillRow int
}

// BeginSliced starts a sliced query: [Searcher.Step] then runs its searches
// a bounded amount at a time, as [core.Sliced] does, until its result's
// status is core.Found (then [Searcher.Next] hands out the cells, as after
// Begin) or core.Unreachable. The searches and the cells are Begin's.
// Errors are AppendPath's. It drops any query in progress.
func (sr *Searcher) BeginSliced(from, to image.Point, q Query) error {
	h := sr.h
	sr.rlock()
	defer sr.runlock()
	if err := sr.restart(); err != nil {
		return err
	}
	sr.incAt = h.version
	res, err := sr.check(from, to, q)
	if err != nil {
		return err
	}
	sr.inc = res
	if res.Status == core.Unreachable {
		return nil
	}
	sr.sl.from, sr.sl.to, sr.sl.q = from, to, q
	sr.sl.phase = slicedInsert
	sr.sl.fill = nil
	if w, near := h.window(from, to); near {
		sr.cs.beginSliced(w, from, to)
		sr.sl.phase = slicedWindow
	}
	return nil
}

// Step runs a sliced query on: at most n expansions of the window's or the
// abstract graph's search (n ≤ 0 counts as 1), or the searches that fill
// the tables of the ends' clusters that no query has needed before, a
// search from one node of the cluster at a time until about n nodes are
// settled, or the searches that join start and goal to the graph (the
// cells of each end's level-1 cluster). Its result's status is
// core.InProgress while searches remain, then core.Found or
// core.Unreachable, as Begin's would be; its expansions count those so far.
// Without a sliced query it returns the latest result. A graph whose grid
// has been edited, or that was updated, since BeginSliced gives
// [ErrStale].
func (sr *Searcher) Step(n int) (Result, error) {
	h := sr.h
	sr.rlock()
	defer sr.runlock()
	sl := &sr.sl
	if sl.phase == slicedNone {
		return sr.inc, nil
	}
	if err := sr.fresh(); err != nil {
		return Result{}, err
	}
	if sr.incAt != h.version {
		return Result{}, fmt.Errorf("%w: the graph was updated since BeginSliced", ErrStale)
	}
	switch sl.phase {
	case slicedWindow:
		win := sr.cs.sliced
		before := win.Result().Expanded
		st := win.Step(n)
		r := win.Result()
		sr.inc.Expanded += r.Expanded - before
		if st == core.InProgress {
			return sr.inc, nil
		}
		if st == core.Found {
			sr.pending = sr.cs.slicedCells(append(sr.pending[:0], sl.from), r.End)
			sr.inc.Status, sr.inc.Cost = core.Found, h.pathCost(sr.pending)
			sl.phase = slicedNone
			return sr.inc, nil
		}
		sl.phase = slicedInsert // the window holds no path: the graph does
	case slicedInsert:
		sl.top = h.topLevel(sl.from, sl.to, sl.q)
		if !sr.fillTables(n) {
			return sr.inc, nil
		}
		sr.inc.Expanded += sr.insertEnds(sl.from, sl.to, sl.top)
		if sl.abs == nil {
			sl.abs = core.NewSliced(&sr.view)
		}
		nn := int32(len(h.nodes))
		w, _ := sl.q.weight() // checked by BeginSliced
		sl.abs.Begin(nn, nn+1, &sr.adist, core.Query{Weight: w})
		sl.phase = slicedAbstract
	case slicedAbstract:
		before := sl.abs.Result().Expanded
		st := sl.abs.Step(n)
		r := sl.abs.Result()
		sr.inc.Expanded += r.Expanded - before
		switch st {
		case core.InProgress:
			return sr.inc, nil
		case core.Found:
			sr.raw = sl.abs.AppendPath(sr.raw[:0], r.End)
			sr.pending = sr.abstractFound(sr.pending[:0], sl.from, sr.raw, sl.top)
			sr.inc.Status, sr.inc.Cost = core.Found, r.Cost
		default:
			sr.inc.Status = core.Unreachable // cannot happen on a connected pair, as in begin
		}
		sl.phase = slicedNone
		return sr.inc, nil
	}
	return sr.inc, nil
}

// fillTables does a part of the filling of the tables that the ends of the
// sliced query need, for Step with budget n, and reports whether they are
// all there.
func (sr *Searcher) fillTables(n int) bool {
	h, sl := sr.h, &sr.sl
	for l := 2; l <= sl.top; l++ {
		for _, p := range [2]image.Point{sl.from, sl.to} {
			c := h.clusterAt(l, p)
			lv := &h.levels[l-2]
			if lv.tables[c].Load() != nil {
				continue
			}
			if sl.fill == nil || sl.fillL != l || sl.fillC != c {
				sl.fill, sl.fillL, sl.fillC, sl.fillRow = sr.ap.newTable(h, l, c, lv.cm[c]), l, c, 0
			}
			var settled int
			sl.fillRow, settled = sr.ap.fillRows(h, sl.fill, l, c, lv.cm[c], sl.fillRow, max(n, 1))
			sr.inc.Expanded += settled
			if sl.fillRow == len(lv.cm[c]) {
				h.keepTable(l, c, sl.fill)
				sl.fill = nil
			}
			return false
		}
	}
	return true
}

// drop ends any incremental or sliced query in progress.
func (sr *Searcher) drop() {
	sr.stream.drop()
	sr.sl.phase = slicedNone
}

// restart drops any query in progress and checks that the graph is up to
// date with its grid, as every new query does.
func (sr *Searcher) restart() error {
	sr.drop()
	return sr.fresh()
}
