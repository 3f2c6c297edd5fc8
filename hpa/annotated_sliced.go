package hpa

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/core"
)

// Incremental and sliced queries of an annotated graph, as a Searcher's
// (incremental.go): Begin answers up to the refinement, BeginSliced and
// Step run the same searches a bounded amount at a time, and Next hands
// out the cells as the refinement goes.

// annSliced is the state of a sliced query between calls of Step.
type annSliced struct {
	phase int // slicedNone, slicedWindow, slicedInsert or slicedAbstract
	top   int // the level of the abstract search
	w     float64
	q     Query
	abs   *core.Sliced // on the abstract view, made at the first sliced query
}

// Begin starts an incremental query for a unit of class class, as
// [Searcher.Begin] does: it answers what AppendPath answers before
// refining the path into cells (the ends joined to the graph and the
// abstract graph searched, or the whole path when the window around near
// ends holds one), so that an agent can start walking while
// [AnnotatedSearcher.Next] hands out the cells as it needs them. The
// cells Next gives, end to end, are those AppendPath gives.
//
// Its result's status is core.Found or core.Unreachable, its cost that of
// the abstract path (the final path's, up to rounding), and its
// expansions those of its searches. Errors are AppendPath's. Begin drops
// any query in progress; AppendPath does too.
func (sr *AnnotatedSearcher) Begin(class int, from, to image.Point, q Query) (Result, error) {
	a := sr.a
	a.rlock()
	defer a.runlock()
	res, err := sr.begin(class, from, to, q)
	if err != nil {
		sr.drop()
	}
	return res, err
}

// BeginSliced starts a sliced query for a unit of class class:
// [AnnotatedSearcher.Step] then runs its searches a bounded amount at a
// time until its result's status is core.Found (then
// [AnnotatedSearcher.Next] hands out the cells, as after Begin) or
// core.Unreachable. The searches and the cells are Begin's. Errors are
// AppendPath's. It drops any query in progress.
func (sr *AnnotatedSearcher) BeginSliced(class int, from, to image.Point, q Query) error {
	a := sr.a
	a.rlock()
	defer a.runlock()
	w, done, err := sr.open(class, from, to, q)
	if err != nil || done {
		if err != nil {
			sr.drop()
		}
		return err
	}
	sl := &sr.sl
	sl.w, sl.q, sl.phase = w, q, slicedInsert
	sr.inc = Result{Status: core.InProgress}
	if win, near := sr.x.window(from, to); near {
		sr.cl.win.beginSliced(win, from, to)
		sl.phase = slicedWindow
	}
	return nil
}

// Step runs a sliced query on: at most n expansions of the window's or
// the abstract graph's search (n ≤ 0 counts as 1), or the searches that
// join start and goal to the graph (the cells of each end's level-1
// cluster, and the class's edges inside its clusters of the levels above),
// which it does not split. Its result's status is core.InProgress while
// searches remain, then core.Found or core.Unreachable, as Begin's would
// be; its expansions count those so far. Once the searches are over it
// returns the query's result as Next last left it (core.InProgress while
// cells remain to hand out), and with no query begun, or after an
// AppendPath, the zero Result (core.NotSearched). A source grid edited
// since BeginSliced, or a graph updated since, gives [ErrStale].
func (sr *AnnotatedSearcher) Step(n int) (Result, error) {
	a := sr.a
	a.rlock()
	defer a.runlock()
	sl := &sr.sl
	if sl.phase == slicedNone {
		return sr.inc, nil
	}
	if err := sr.current("BeginSliced"); err != nil {
		return Result{}, err
	}
	from, to := sr.ends[0], sr.ends[1]
	switch sl.phase {
	case slicedWindow:
		win := sr.cl.win.sliced
		before := win.Result().Expanded
		st := win.Step(n)
		r := win.Result()
		sr.exp += r.Expanded - before
		sr.inc.Expanded = sr.exp
		if st == core.InProgress {
			return sr.inc, nil
		}
		if st == core.Found {
			sr.pending = sr.cl.win.slicedCells(sr.pending[:1], r.End)
			sr.inc = Result{Status: core.Found, Cost: sr.x.pathCost(sr.pending), Expanded: sr.exp}
			sl.phase = slicedNone
			return sr.inc, nil
		}
		sl.phase = slicedInsert // the window holds no path: the graph does
	case slicedInsert:
		sl.top = a.base.topLevel(from, to, sl.q)
		sr.prepare(uint64(1)<<sr.class, sl.top)
		if sl.abs == nil {
			sl.abs = core.NewSliced(&sr.view)
		}
		nn := int32(len(a.base.nodes))
		sl.abs.Begin(nn, nn+1, &sr.adist, core.Query{Weight: sl.w})
		sr.inc.Expanded = sr.exp
		sl.phase = slicedAbstract
	case slicedAbstract:
		before := sl.abs.Result().Expanded
		st := sl.abs.Step(n)
		r := sl.abs.Result()
		sr.exp += r.Expanded - before
		sr.inc.Expanded = sr.exp
		if st == core.InProgress {
			return sr.inc, nil
		}
		sl.phase = slicedNone
		return sr.abstractFound(r, sl.abs, sl.top), nil
	}
	return sr.inc, nil
}

// Next appends the next cells of the path of the latest Begin or sliced
// query to dst, as [Searcher.Next] does: at least n of them when n > 0
// (whole refined abstract edges at a time, so a few more), all the rest
// when n ≤ 0; the first call gives the start. Its result's status is
// core.InProgress while cells remain, then core.Found, with the cost of
// the whole path on the class's grid and the expansions of all its
// searches; core.Unreachable, or core.NotSearched with no query begun,
// append nothing, and so does a sliced query whose searches Step has not
// finished. Each call's work is bounded by the abstract edges it refines:
// those of its cells, and the next one, whose cells wait for the next
// call, so that core.InProgress means cells remain.
// A source grid edited since Begin, or a graph updated since, gives
// [ErrStale]; begin again on the updated graph.
func (sr *AnnotatedSearcher) Next(dst []image.Point, n int) ([]image.Point, Result, error) {
	a := sr.a
	a.rlock()
	defer a.runlock()
	if sr.sl.phase != slicedNone || sr.inc.Status != core.Found && sr.inc.Status != core.InProgress {
		return dst, sr.inc, nil
	}
	if err := sr.current("Begin"); err != nil {
		return dst, Result{}, err
	}
	n0 := len(dst)
	dst, more := sr.take(dst, n)
	ok := true
	if more != 0 {
		dst, ok = sr.refine(dst, more)
	}
	if ok && sr.ahead() {
		sr.pending, ok = sr.refine(sr.pending[:0], 1)
	}
	if !ok {
		err := sr.lost()
		sr.drop()
		return dst[:n0], Result{}, err
	}
	sr.inc.Expanded = sr.exp
	return dst, sr.settle(sr.x, dst[n0:]), nil
}

// current returns ErrStale, wrapped, when the source grid was edited, or
// the graph updated, since the query in progress began (by the method
// named begun). The caller holds a.mu and the source grid's read lock.
func (sr *AnnotatedSearcher) current(begun string) error {
	if err := sr.a.fresh(); err != nil {
		return err
	}
	if sr.incAt != sr.a.version {
		return fmt.Errorf("%w: the annotated graph was updated since %s", ErrStale, begun)
	}
	return nil
}

// drop ends any incremental or sliced query in progress.
func (sr *AnnotatedSearcher) drop() {
	sr.stream.drop()
	sr.sl.phase = slicedNone
}
