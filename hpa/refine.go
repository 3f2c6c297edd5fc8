package hpa

import (
	"fmt"
	"image"
	"slices"
	"sync/atomic"

	"github.com/cairn-nav/cairn/core"
)

// refineFrame is one level of a refinement in progress: an abstract path of
// that level, and the index of the end of its next edge to refine.
type refineFrame struct {
	level int
	path  []int32
	k     int
}

// refine appends cells of the refinement in sr.frames to dst, whole
// abstract edges at a time, until it has appended at least n cells (all of
// them when n ≤ 0) or the path is complete, and returns the nodes its
// searches expanded. Each edge of level l > 1 becomes a path of the level
// below, found by A* confined to the edge's cluster, and refined in turn;
// each level-1 edge becomes a path of cells inside its cluster, or one
// step between clusters.
func (sr *Searcher) refine(dst []image.Point, n int) ([]image.Point, int, error) {
	h := sr.h
	nn := int32(len(h.nodes))
	exp := 0
	n0 := len(dst)
	for n <= 0 || len(dst)-n0 < n {
		f, i, ok := sr.nextEdge()
		if !ok {
			break
		}
		l := f.level
		a, b := f.path[i-1], f.path[i]
		if l == 0 { // the abstract path: each step at its own level
			l = int(sr.alevel[i-1])
		}
		pa, pb := sr.endCell(a), sr.endCell(b)
		if a < nn && b < nn && h.clusterAt(l, pa) != h.clusterAt(l, pb) {
			dst = append(dst, pb) // an inter-cluster step
			continue
		}
		if l == 1 {
			var c int32
			switch {
			case a == nn:
				c = h.clusterOf(pa)
			default:
				c = h.clusterOf(pb)
			}
			var e int
			ok := true
			switch {
			case a == nn: // the first step: from the start's insertion tree
				dst = sr.ins[0].appendTreePath(dst, pb, false)
			case b == nn+1: // the last: from the goal's, reversed
				dst = sr.ins[1].appendTreePath(dst, pa, true)
			case a < nn && b < nn: // between two nodes: maybe found before
				dst, e, ok = sr.cs.appendNodePath(dst, c, a, b)
			default:
				dst, e, ok = sr.cs.appendPath(dst, c, pa, pb)
			}
			exp += e
			if !ok {
				sr.frames = sr.frames[:0]
				return dst, exp, fmt.Errorf("hpa: internal error: no path from (%d,%d) to (%d,%d) inside cluster %d", pa.X, pa.Y, pb.X, pb.Y, c)
			}
			continue
		}
		// An edge inside a level-l cluster: search the level below.
		inner := pb
		if b == nn+1 {
			inner = pa
		}
		lc := h.clusterAt(l, inner)
		var slot *atomic.Pointer[[]int32]
		if a < nn && b < nn { // between two nodes: maybe found before
			if slot = h.levelSlot(l, lc, a, b); slot != nil {
				if seq := slot.Load(); seq != nil {
					sr.frames = append(sr.frames, refineFrame{level: l - 1, path: *seq, k: 1})
					continue
				}
			}
		}
		// Only level-1 edges join the ends: this one is between two nodes.
		sr.view.level, sr.view.confine, sr.view.cluster = l-1, l, lc
		sr.view.start = nil
		sr.view.setGoal(nil)
		sr.adist.target = pb
		sr.adist.alt.lm = nil
		r := sr.abs.Search(a, b, &sr.adist, core.Query{})
		exp += r.Expanded
		if r.Status != core.Found {
			sr.frames = sr.frames[:0]
			return dst, exp, fmt.Errorf("hpa: internal error: no level-%d path from (%d,%d) to (%d,%d)", l-1, pa.X, pa.Y, pb.X, pb.Y)
		}
		sr.seq[l-2] = sr.abs.AppendPath(sr.seq[l-2][:0], r.End)
		path := sr.seq[l-2]
		if slot != nil {
			kept := slices.Clone(path)
			slot.Store(&kept)
			path = kept
		}
		sr.frames = append(sr.frames, refineFrame{level: l - 1, path: path, k: 1})
	}
	return dst, exp, nil
}
