package core_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/cairn-nav/cairn/core"
)

// TestSlicedDistExpanded checks Sliced.Dist and Sliced.Expanded after every
// step of sliced queries against a blocking search cut off by a budget of
// the expansions made so far, which leaves the same nodes settled, and at
// the end against the unbounded blocking search.
func TestSlicedDistExpanded(t *testing.T) {
	for _, c := range graphCases(80) {
		g, r := c.g, c.r
		s := core.NewSearcher(g)
		sl := core.NewSliced(g)
		n := int32(len(g.out))
		if d, ok := sl.Dist(0); ok || !math.IsInf(d, 1) || sl.Expanded() != 0 {
			t.Fatalf("seed %d: before Begin, Dist(0) = %v, %v and Expanded %d; want +Inf, false, 0", c.seed, d, ok, sl.Expanded())
		}
		for range 3 {
			start, goal := r.Int32N(n), r.Int32N(n)
			for _, h := range heuristics(g, goal, r) {
				for _, opt := range []core.Query{{}, {Weight: 2}} {
					for _, step := range []int{1, 3} {
						where := fmt.Sprintf("seed %d, %d→%d, heuristic %s, %+v, Step(%d)", c.seed, start, goal, h.name, opt, step)
						sl.Begin(start, goal, h.h, opt)
						for st := core.InProgress; st == core.InProgress; {
							st = sl.Step(step)
							k := sl.Expanded()
							if k != sl.Result().Expanded {
								t.Fatalf("%s: Expanded %d, Result %+v", where, k, sl.Result())
							}
							cut := opt
							cut.MaxExpansions = k
							want := s.Search(start, goal, h.h, cut)
							if st == core.InProgress && (k == 0 || want.Status != core.BudgetSpent) {
								continue // the blocking search settles the next node too
							}
							if st != core.InProgress {
								want = s.Search(start, goal, h.h, opt)
							}
							for v := range n {
								gd, gok := sl.Dist(v)
								wd, wok := s.Dist(v)
								if gok != wok || gd != wd && !(math.IsInf(gd, 1) && math.IsInf(wd, 1)) {
									t.Fatalf("%s: after %d expansions (%v), Dist(%d) = %v, %v; the blocking search's (%v) %v, %v\n%v",
										where, k, st, v, gd, gok, want.Status, wd, wok, g)
								}
							}
						}
					}
				}
			}
		}
	}
}
