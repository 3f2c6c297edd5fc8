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
	h.mu.RLock()
	defer h.mu.RUnlock()
	h.g.RLock()
	defer h.g.RUnlock()
	sr.pending, sr.pendingAt, sr.handed = sr.pending[:0], 0, costSum{}
	sr.frames = sr.frames[:0]
	sr.inc = Result{}
	if err := sr.fresh(); err != nil {
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
// begun, append nothing. Each call's work is bounded by the abstract edges
// it refines. A graph whose grid has been edited since Begin, or that was
// updated since, gives [ErrStale]; Begin again on the updated graph.
func (sr *Searcher) Next(dst []image.Point, n int) ([]image.Point, Result, error) {
	h := sr.h
	h.mu.RLock()
	defer h.mu.RUnlock()
	h.g.RLock()
	defer h.g.RUnlock()
	if sr.inc.Status != core.Found && sr.inc.Status != core.InProgress {
		return dst, sr.inc, nil
	}
	if err := sr.fresh(); err != nil {
		return dst, Result{}, err
	}
	if sr.incAt != h.version { // the graph was updated in place since Begin
		return dst, Result{}, fmt.Errorf("%w: the graph was updated since Begin", ErrStale)
	}
	n0 := len(dst)
	// The cells found but not handed out, then more refinement.
	if rest := sr.pending[sr.pendingAt:]; len(rest) > 0 {
		k := len(rest)
		if n > 0 {
			k = min(k, n)
		}
		dst = append(dst, rest[:k]...)
		sr.pendingAt += k
	}
	if n <= 0 || len(dst)-n0 < n {
		more := n
		if n > 0 {
			more = n - (len(dst) - n0)
		}
		var e int
		var err error
		dst, e, err = sr.refine(dst, more)
		sr.inc.Expanded += e
		if err != nil {
			sr.inc = Result{}
			return dst[:n0], Result{}, err
		}
	}
	sr.handed.add(h, dst[n0:])
	res := sr.inc
	if sr.pendingAt < len(sr.pending) || len(sr.frames) > 0 {
		res.Status = core.InProgress
	} else {
		res.Status, res.Cost = core.Found, sr.handed.cost()
	}
	sr.inc.Status = res.Status
	return dst, res, nil
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
