package hpa

import (
	"errors"
	"fmt"
	"image"
	"slices"

	"github.com/cairn-nav/cairn/grid"
)

// Update returns the graph of edited, h's grid edited in place with
// [grid.Grid.SetCells] or a copy of it edited with [grid.Grid.WithCells],
// whose cells differ from those h was made from only inside the rectangle
// changed (the union of the edits' rectangles), rebuilding only what the
// edit can reach: the
// intra-cluster edges of the clusters within one cell of changed, and of any
// cluster whose transitions moved. The transitions, the other clusters'
// edges and the levels above are carried over or recomputed from them, so
// queries on the result answer exactly as on Build(edited, h.Options()).
// h itself is unchanged: it stays usable when edited is a copy, and its
// queries fail with [ErrStale] once its grid is edited in place. Parts of
// changed outside the
// grid are ignored, so any rectangle, however large, is safe.
//
// It is an error when edited is nil or not of h's grid's size. Cells that
// differ outside changed make the result wrong; Update does not look for
// them. Its cost is one pass over the cluster borders, the searches of the
// touched clusters, and the levels above.
func (h *Graph) Update(edited *grid.Grid, changed image.Rectangle) (*Graph, error) {
	if edited == nil {
		return nil, errors.New("hpa: nil grid")
	}
	if edited.Width() != h.w || edited.Height() != h.h {
		return nil, fmt.Errorf("hpa: edited grid is %d×%d, the graph's is %d×%d", edited.Width(), edited.Height(), h.w, h.h)
	}
	if edited.Connectivity() != h.g.Connectivity() || edited.HasCosts() != h.costs {
		return nil, errors.New("hpa: edited grid differs from the graph's in connectivity or terrain")
	}
	edited.RLock() // one version of the grid throughout
	defer edited.RUnlock()
	// A changed cell changes the moves of its neighbours too. Clip first:
	// growing a rectangle that reaches past the int range would overflow.
	bounds := image.Rect(0, 0, h.w, h.h)
	var reach image.Rectangle
	if c := changed.Intersect(bounds); !c.Empty() {
		reach = c.Inset(-1).Intersect(bounds)
	}
	n := newGraph(edited, h.cs, h.me)
	reuse := func(c int32) ([]intraEdge, bool) {
		if !reach.Empty() && n.clusterRect(c).Overlaps(reach) {
			return nil, false
		}
		// The cluster's cells are as before; its edges carry over when its
		// transition cells are the same, renumbered.
		oldNodes := h.nodes[h.first[c]:h.first[c+1]]
		newNodes := n.nodes[n.first[c]:n.first[c+1]]
		if !slices.Equal(oldNodes, newNodes) {
			return nil, false
		}
		shift := n.first[c] - h.first[c]
		var es []intraEdge
		for a := h.first[c]; a < h.first[c+1]; a++ {
			for _, e := range h.edges[h.off[a]:h.off[a+1]] {
				if e.To > a && h.nodes[e.To].cluster == c {
					es = append(es, intraEdge{from: a + shift, to: e.To + shift, cost: e.Cost})
				}
			}
		}
		return es, true
	}
	n.build(h.Levels(), h, reach, reuse, nil)
	return n, nil
}
