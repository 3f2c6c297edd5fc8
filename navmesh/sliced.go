package navmesh

import (
	"github.com/cairn-nav/cairn/core"
	"github.com/go-gl/mathgl/mgl64"
)

// Sliced queries: BeginSliced starts a query, Step runs its search a
// bounded number of expansions at a time, and AppendSlicedPath gives the
// path once the search has ended. The search is AppendPath's, run on the
// same core.Sliced with the same setup, so the answer is AppendPath's bit
// for bit.

// sliced is the state of a sliced query between calls.
type sliced struct {
	q         Query
	searching bool         // a search is in progress
	res       Result       // the latest result, final once searching is false
	path      []mgl64.Vec2 // the path, once the query has ended
}

// BeginSliced starts a sliced query from from to to: it checks and locates
// the ends as [Searcher.AppendPath] does, with the same errors, and begins
// the search that AppendPath would run for q (the exact one, or the
// corridor search with q.Corridor) without running it; [Searcher.Step]
// then runs it, a bounded number of expansions per call, so that a game
// can spread a long query over frames under a budget. A query answered
// without a search (both ends in one polygon, or in different components
// of the mesh) is ready at once: the first Step returns its result. After
// an error Step returns the zero Result and [Searcher.AppendSlicedPath]
// appends nothing.
//
// BeginSliced drops any sliced query in progress, and so does
// AppendPath: a Searcher runs one query at a time, and its blocking and
// sliced queries share its scratch. (Queries in flight at once need a
// Searcher each.) A [Mesh] never
// changes ([Mesh.Update] returns a new one), so a sliced query cannot go
// stale between its steps, however many frames it spans.
//
// It costs what locating the ends costs, and allocates nothing once the
// Searcher's buffers have grown (the first corridor query, sliced or not,
// allocates the corridor search's scratch: see [Searcher.AppendCorridor]).
// Like the rest of the Searcher, it is not safe for concurrent use.
func (sr *Searcher) BeginSliced(from, to mgl64.Vec2, q Query) error {
	sl := &sr.sl
	sr.dropSliced()
	sl.q = q
	var err error
	if q.Corridor {
		var ok bool
		_, ok, sl.path, sl.res, err = sr.beginCorridor(sl.path, from, to, q)
		sl.searching = ok
	} else if sl.path, sl.res, _, err = sr.settle(sl.path, from, to, q); err == nil && sl.res.Status == core.NotSearched {
		sr.beginExact(from, to, q)
		sl.searching = true
	}
	if sl.searching {
		sl.res = Result{Status: core.InProgress}
	}
	return err
}

// Step runs at most n expansions (n ≤ 0 counts as 1), as
// [Result.Expanded] counts them, of the search of the sliced query begun by
// [Searcher.BeginSliced], and returns the query's result. Its status is core.InProgress while the search goes
// on, with only Expanded set: the expansions so far. Once the search has
// ended the result is the one AppendPath would have returned: status
// core.Found, core.Unreachable, or core.BudgetSpent when q.MaxExpansions
// ran out, with the length and end of the path that
// [Searcher.AppendSlicedPath] then appends. Without a sliced query in
// progress it returns the latest result again: that of the last one to
// end, or the zero Result when there has been none since NewSearcher, an
// error of BeginSliced, or AppendPath.
//
// A step of the exact search that outgrows the Searcher's room for search
// nodes (4096 at first) doubles it and goes on, as AppendPath does; its
// Expanded only rises. The room stays for later queries.
//
// The error is always nil: a Mesh never changes, so a query cannot go
// stale (hpa.Searcher.Step, whose graph can, has the same shape).
//
// A step costs O(n log k) for the k nodes of the search, plus, on the step
// that ends it, making the path (O(k) to pick the end of a partial one,
// and pulling a corridor taut; also on the step that ends a corridor
// query's first pass, when a second follows). A corridor query that runs over a tiled
// mesh's tiles (see [Searcher.AppendCorridor]) also searches its goal's
// tiles when it begins and its start's on its first step, and finds each
// tile table that a step needs and the mesh lacks (some 0.4 ms a tile of
// 64×64 cells), which no count of expansions bounds: call
// [Mesh.FillCorridorTables] at load for steps of bounded time. It
// allocates only while the Searcher's buffers grow, and for those tables.
func (sr *Searcher) Step(n int) (Result, error) {
	sl := &sr.sl
	if !sl.searching {
		return sl.res, nil
	}
	n = max(n, 1)
	var done bool
	if sl.q.Corridor {
		done = sr.c.step(n) && sr.secondPass(sl.q)
	} else {
		done = sr.stepExact(n)
	}
	if !done {
		expanded := sr.s.Expanded()
		if sl.q.Corridor {
			expanded = sr.c.expanded()
		}
		sl.res = Result{Status: core.InProgress, Expanded: expanded}
		return sl.res, nil
	}
	sl.searching = false
	if sl.q.Corridor {
		sl.path, sl.res = sr.passesPath(sl.path[:0], sl.q)
	} else {
		sl.path, sl.res = sr.exactPath(sl.path[:0])
	}
	return sl.res, nil
}

// AppendSlicedPath appends the path of the sliced query to dst, once
// [Searcher.Step] has returned a status other than core.InProgress, and
// returns the extended slice with the query's result: exactly the path and
// result that [Searcher.AppendPath] would have returned (a partial path
// when the budget ran out, nothing when the goal is unreachable), and for
// a query with [Query.Corridor], [Searcher.AppendCorridor] gives its
// corridor from then on. While the search is in progress, and without a
// sliced query, it appends nothing and returns Step's latest result. It
// may be called again for another copy. It costs O(n) for a path of n
// points and allocates only when dst lacks room.
func (sr *Searcher) AppendSlicedPath(dst []mgl64.Vec2) ([]mgl64.Vec2, Result) {
	sl := &sr.sl
	if sl.searching {
		return dst, sl.res
	}
	return append(dst, sl.path...), sl.res
}

// dropSliced drops the sliced query, in progress or ended.
func (sr *Searcher) dropSliced() {
	sr.sl.searching = false
	sr.sl.res = Result{}
	sr.sl.path = sr.sl.path[:0]
}
