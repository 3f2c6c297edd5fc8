package core

import "math"

// Searcher runs blocking A* queries on one graph and owns their scratch
// memory. Build one per goroutine with [NewSearcher] and reuse it: after the
// first few queries have grown its buffers, a query allocates nothing.
//
// The path, distances and open list of the latest query stay readable until
// the next query starts.
type Searcher struct {
	s search
}

// NewSearcher returns a searcher for g. It allocates scratch proportional to
// g.NumNodes(); if the graph later grows, the scratch follows at the next
// query. It panics when g is nil.
func NewSearcher(g Graph) *Searcher { return &Searcher{s: newSearch(g)} }

// Search finds a path from start to goal. It panics if start or goal is not
// a node of the graph (a programmer error). Its cost is O(E log V) in the
// nodes it touches; it allocates only while its buffers grow.
func (sr *Searcher) Search(start, goal int32, h Heuristic, opt Query) Result {
	s := &sr.s
	s.begin(start, h, opt)
	s.checkNode(goal, "goal")
	s.goal = goal
	s.step(0)
	return s.res
}

// SearchFunc searches from start until it expands a node for which isGoal
// returns true; that node is the result's End. With a nil heuristic it
// finds the nearest such node.
func (sr *Searcher) SearchFunc(start int32, isGoal func(n int32) bool, h Heuristic, opt Query) Result {
	s := &sr.s
	s.begin(start, h, opt)
	s.goal = -1
	s.isGoal = isGoal
	s.step(0)
	return s.res
}

// SearchAll runs Dijkstra's algorithm from start until every node of targets
// is settled (or all reachable nodes are, when some target is unreachable).
// Afterwards [Searcher.Dist] and [Searcher.AppendPath] answer for each
// target. The result's End is the last target settled; its Status is Found
// when all targets were reached, Unreachable when some cannot be, and
// BudgetSpent (with End the start) when opt.MaxExpansions ran out first.
func (sr *Searcher) SearchAll(start int32, targets []int32, opt Query) Result {
	s := &sr.s
	s.begin(start, nil, opt)
	s.goal = -1
	if len(s.target) < len(s.nodes) {
		s.target = make([]uint32, len(s.nodes))
	}
	for _, t := range targets {
		s.checkNode(t, "target")
		if s.target[t] != s.gen {
			s.target[t] = s.gen
			s.targets++
		}
	}
	if s.targets == 0 {
		s.finish(Result{Status: Found, End: start})
		return s.res
	}
	s.step(0)
	return s.res
}

// AppendPath appends the nodes of the best path found from the start to end,
// both included, and returns the extended slice. For a node the latest query
// never reached it appends nothing.
func (sr *Searcher) AppendPath(dst []int32, end int32) []int32 {
	return sr.s.appendPath(dst, end)
}

// Dist returns the cost of the shortest path from the latest query's start to
// n, and whether n was settled (expanded or reached as a goal). Nodes still on
// the open list report +Inf and false. After a search with an inconsistent
// heuristic the cost may predate an improvement of an ancestor; searches
// without a heuristic (SearchAll) are exact.
func (sr *Searcher) Dist(n int32) (float64, bool) {
	return sr.s.dist(n)
}

// AppendOpen appends the nodes left on the open list by the latest query (for
// pictures of the search frontier).
func (sr *Searcher) AppendOpen(dst []int32) []int32 {
	return sr.s.appendOpen(dst)
}

// Sliced is a time-sliced A* query: [Sliced.Begin] starts it, each
// [Sliced.Step] expands a bounded number of nodes, and the result and path
// are read when Step reports the search has ended. It owns its own scratch,
// so a game may keep a Searcher for blocking queries beside any number of
// Sliced searches over the same graph.
//
// The graph must not change between Begin and the end of the search.
type Sliced struct {
	s search
}

// NewSliced returns a time-sliced searcher for g. It panics when g is nil.
func NewSliced(g Graph) *Sliced { return &Sliced{s: newSearch(g)} }

// Begin starts a query from start to goal, discarding any query in progress.
func (sl *Sliced) Begin(start, goal int32, h Heuristic, opt Query) {
	s := &sl.s
	s.begin(start, h, opt)
	s.checkNode(goal, "goal")
	s.goal = goal
}

// Step expands at most n nodes (n ≤ 0 counts as 1) and returns the status:
// [InProgress] while the search goes on, else the final status.
func (sl *Sliced) Step(n int) Status {
	if n <= 0 {
		n = 1
	}
	if sl.s.gen == 0 {
		return Unreachable // never begun
	}
	if sl.s.step(n) {
		return sl.s.res.Status
	}
	return InProgress
}

// Result returns the result so far: the final one once Step has returned a
// status other than InProgress, and before that a result with status
// InProgress, End at the node of lowest heuristic reached and the
// expansions counted.
func (sl *Sliced) Result() Result {
	s := &sl.s
	if s.done {
		return s.res
	}
	r := Result{Status: InProgress, End: -1, Cost: math.Inf(1), Expanded: s.expanded}
	if s.gen != 0 {
		r.End = s.best
		r.Cost = s.nodes[s.best].g
		if s.reopened {
			// As in finish: the path may run through improved ancestors.
			r.Cost = s.chainCost(s.best)
		}
	}
	return r
}

// AppendPath appends the path from the start to end found so far; see
// [Searcher.AppendPath].
func (sl *Sliced) AppendPath(dst []int32, end int32) []int32 {
	return sl.s.appendPath(dst, end)
}

// Expanded returns the nodes the query has expanded so far, as
// [Sliced.Result] counts them, in O(1): unlike Result it never sums a
// path's cost.
func (sl *Sliced) Expanded() int { return sl.s.expanded }

// Dist returns the cost of the shortest path found so far from the query's
// start to n, and whether n is settled (expanded, or reached as the goal);
// see [Searcher.Dist]. A graph may call it while the search asks for a
// node's edges, to prune the edges back into settled nodes.
func (sl *Sliced) Dist(n int32) (float64, bool) { return sl.s.dist(n) }
