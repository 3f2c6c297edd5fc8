package grid

import (
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/cairn-nav/cairn/internal/unionfind"
)

// Connected regions, kept in two levels so that an edit relabels what it
// touches. The map is cut into square tiles of tileSide cells. Each tile's
// free cells are split into its components (4-connected within the tile),
// numbered 0, 1, … within the tile, and each component has an ID. A cell's
// entry in comp is the tile-local number of its component (a uint16, 2
// bytes a cell), and the tile's comps maps that number to the ID.
// Components of neighbouring tiles that touch across the border are
// linked. The regions are the classes of components under the links,
// found with a union-find over the IDs, and label maps an ID to its region.
// A cell's region is thus four loads: its number, its tile's comps, the
// ID, the label.
//
// Under the no-corner-cutting rule every diagonal step can be replaced by
// two orthogonal ones, so regions are the 4-connected components for both
// connectivities, and so are the tile components.
//
// A tile has at most tileSide²/2 = 2048 components: one cell of each, taken
// together, are free cells no two of which are 4-neighbours, and a 64×64
// checkerboard's 2048 free cells are the most there can be (pair the cells
// of each row two by two: a pair holds at most one of them). So the local
// numbers fit a uint16, with noComp to spare for blocked cells.
//
// An edit labels again the tiles it touches (O(tileSide²) each), computes
// their links and their left and upper neighbours' links again, then joins
// all components: O(components + links), a few per tile, instead of
// O(cells).
//
// Sizes ride along: counting a tile counts each component's cells and
// notes its first cell, and the join sums them per region, so the size of
// a region and its largest one cost O(1) to read (see reach.go).

const (
	tileShift = 6
	tileSide  = 1 << tileShift

	// maxTileComps bounds the components of a tile (see above).
	maxTileComps = tileSide * tileSide / 2
	// noComp is the entry in comp of a blocked cell.
	noComp = math.MaxUint16
)

// The local numbers 0 … maxTileComps-1 must fit a uint16 below noComp.
var _ [noComp - maxTileComps]struct{}

// regions is the two-level labelling of a grid's connected regions.
type regions struct {
	ntx, nty int
	comp     []uint16 // per padded cell: its component's number within its tile, noComp when blocked
	label    []int32  // per component ID: its region, -1 for an unused ID
	n        int      // regions
	tiles    []tileRegions
	unused   []int32 // component IDs free for reuse

	// Per component ID: its free cells, and the padded index of its first
	// cell in row-major order (both meaningless for an unused ID).
	size, first []int32
	// Per region: its free cells, and the padded index of its first cell
	// in row-major order.
	rsize, rfirst []int32
	free          int   // free cells of the grid
	largest       int32 // the region with most cells, of two the one whose first cell comes first; -1 for none

	// Scratch of relabel, and of labelling the tiles an edit touches.
	forest  unionfind.Forest
	root    []int32
	scratch tileScratch
}

// tileRegions is what one tile adds to the labelling.
type tileRegions struct {
	comps []int32 // the IDs of its components, indexed by their numbers within the tile
	// links joins a component of this tile to one of the tile to its right
	// or below, each pair once.
	links []link
}

type link struct{ a, b int32 }

// tileScratch is the working memory of labelling one tile.
type tileScratch struct {
	forest unionfind.Forest
	runs   []tileRun
	starts []int32 // per row of the tile, its first run
	local  []int32 // per run: its component, 0-based within the tile
}

// tileRun is a run of free cells of one row: padded indices [x0, x1).
type tileRun struct{ x0, x1 int32 }

// tileRect returns the cells of tile t: [x0, x1) × [y0, y1).
func (g *Grid) tileRect(t int) (x0, y0, x1, y1 int) {
	tx, ty := t%g.rg.ntx, t/g.rg.ntx
	x0, y0 = tx<<tileShift, ty<<tileShift
	return x0, y0, min(x0+tileSide, g.w), min(y0+tileSide, g.h)
}

// labelRegions labels the connected regions from scratch, the tiles on
// runtime.GOMAXPROCS goroutines.
func (g *Grid) labelRegions() {
	rg := &g.rg
	rg.ntx, rg.nty = (g.w+tileSide-1)>>tileShift, (g.h+tileSide-1)>>tileShift
	nt := rg.ntx * rg.nty
	rg.comp = make([]uint16, len(g.free))
	for i := range rg.comp {
		rg.comp[i] = noComp
	}
	rg.tiles = make([]tileRegions, nt)
	rg.unused = nil
	// Label each tile with local IDs, then number the components tile by
	// tile.
	counts := make([]int32, nt)
	nw := min(runtime.GOMAXPROCS(0), nt)
	var wg sync.WaitGroup
	for k := range nw {
		wg.Go(func() {
			var sc tileScratch
			for t := k; t < nt; t += nw {
				counts[t] = g.labelTile(t, &sc)
			}
		})
	}
	wg.Wait()
	var next int32
	for t := range nt {
		c := counts[t]
		ids := make([]int32, c)
		for i := range ids {
			ids[i] = next + int32(i)
		}
		rg.tiles[t].comps = ids
		next += c
	}
	rg.label = make([]int32, next)
	rg.size, rg.first = make([]int32, next), make([]int32, next)
	for k := range nw {
		wg.Go(func() {
			for t := k; t < nt; t += nw {
				g.countTile(t)
			}
		})
	}
	wg.Wait()
	for k := range nw {
		wg.Go(func() {
			for t := k; t < nt; t += nw {
				g.linkTile(t)
			}
		})
	}
	wg.Wait()
	g.joinRegions()
}

// labelTile gives the free cells of tile t local component numbers 0, 1, …
// in comp, in the order of each component's first cell row by row, and
// noComp to its blocked cells, and returns how many there are (at most
// maxTileComps).
func (g *Grid) labelTile(t int, sc *tileScratch) int32 {
	x0, y0, x1, y1 := g.tileRect(t)
	sc.runs, sc.starts, sc.forest = sc.runs[:0], sc.starts[:0], sc.forest[:0]
	for y := y0; y < y1; y++ {
		sc.starts = append(sc.starts, int32(len(sc.runs)))
		base := g.pidx(0, y) // base+x is the padded index of (x, y)
		for x := x0; x < x1; x++ {
			if !g.free[base+x] {
				g.rg.comp[base+x] = noComp
				continue
			}
			xs := x
			for x+1 < x1 && g.free[base+x+1] {
				x++
			}
			id := int32(len(sc.runs)) // the run is [xs, x]
			sc.runs = append(sc.runs, tileRun{int32(base + xs), int32(base + x + 1)})
			sc.forest = append(sc.forest, id)
		}
		if y == y0 {
			continue
		}
		above, here := sc.starts[y-y0-1], sc.starts[y-y0]
		for a, b := above, here; a < here && b < int32(len(sc.runs)); {
			ra, rb := sc.runs[a], sc.runs[b]
			ax0, ax1 := ra.x0+int32(g.pw), ra.x1+int32(g.pw)
			if ax0 < rb.x1 && rb.x0 < ax1 {
				sc.forest.Union(a, b)
			}
			if ax1 < rb.x1 {
				a++
			} else {
				b++
			}
		}
	}
	// Unions keep the smaller index as the root, so a component's root is
	// its first run.
	sc.local = sc.local[:0]
	var n int32
	for r := range sc.runs {
		root := sc.forest.Find(int32(r))
		var c int32
		if root == int32(r) {
			c = n
			n++
		} else {
			c = sc.local[root]
		}
		sc.local = append(sc.local, c)
		run := g.rg.comp[sc.runs[r].x0:sc.runs[r].x1]
		for i := range run {
			run[i] = uint16(c)
		}
	}
	return n
}

// countTile counts the cells of the components of tile t and notes their
// first ones in size and first, reading the local numbers that labelTile
// wrote and the IDs in the tile's comps. Tiles have disjoint IDs, so tiles
// may be counted in parallel.
func (g *Grid) countTile(t int) {
	rg := &g.rg
	x0, y0, x1, y1 := g.tileRect(t)
	ids := rg.tiles[t].comps
	for _, id := range ids {
		rg.size[id] = 0
	}
	for y := y0; y < y1; y++ {
		base := g.pidx(x0, y)
		row := rg.comp[base:g.pidx(x1, y)]
		for i, c := range row {
			if c == noComp {
				continue
			}
			id := ids[c]
			if rg.size[id] == 0 {
				rg.first[id] = int32(base + i)
			}
			rg.size[id]++
		}
	}
}

// linkTile computes the links of tile t to the tiles to its right and below.
func (g *Grid) linkTile(t int) {
	rg := &g.rg
	x0, y0, x1, y1 := g.tileRect(t)
	ls := rg.tiles[t].links[:0]
	here := rg.tiles[t].comps
	// add links the components of cell i of tile t and cell j of the tile
	// whose component IDs are there.
	add := func(i, j int, there []int32) {
		ca, cb := rg.comp[i], rg.comp[j]
		if ca == noComp || cb == noComp {
			return
		}
		a, b := here[ca], there[cb]
		if n := len(ls); n > 0 && ls[n-1] == (link{a, b}) {
			return // the common case: the same pair as the cell before
		}
		ls = append(ls, link{a, b})
	}
	if x1 < g.w {
		right := rg.tiles[t+1].comps
		for y := y0; y < y1; y++ {
			i := g.pidx(x1-1, y)
			add(i, i+1, right)
		}
	}
	if y1 < g.h {
		below := rg.tiles[t+rg.ntx].comps
		for x := x0; x < x1; x++ {
			i := g.pidx(x, y1-1)
			add(i, i+g.pw, below)
		}
	}
	slices.SortFunc(ls, func(p, q link) int {
		if p.a != q.a {
			return int(p.a - q.a)
		}
		return int(p.b - q.b)
	})
	rg.tiles[t].links = slices.Compact(ls)
}

// joinRegions labels the regions from the tiles' components and links:
// labels are given tile by tile, in the order of the components' IDs
// within each tile. It sums the components' sizes and first cells into the
// regions' and finds the largest region, all in O(components).
func (g *Grid) joinRegions() {
	rg := &g.rg
	n := len(rg.label)
	rg.forest = slices.Grow(rg.forest[:0], n)[:n]
	for i := range rg.forest {
		rg.forest[i] = int32(i)
	}
	for t := range rg.tiles {
		for _, l := range rg.tiles[t].links {
			rg.forest.Union(l.a, l.b)
		}
	}
	rg.root = slices.Grow(rg.root[:0], n)[:n]
	for i := range rg.root {
		rg.root[i] = -1
		rg.label[i] = -1
	}
	rg.n, rg.free = 0, 0
	rg.rsize, rg.rfirst = slices.Grow(rg.rsize[:0], n), slices.Grow(rg.rfirst[:0], n)
	for t := range rg.tiles {
		for _, c := range rg.tiles[t].comps {
			r := rg.forest.Find(c)
			if rg.root[r] < 0 {
				rg.root[r] = int32(rg.n)
				rg.n++
				rg.rsize = append(rg.rsize, 0)
				rg.rfirst = append(rg.rfirst, math.MaxInt32)
			}
			l := rg.root[r]
			rg.label[c] = l
			rg.rsize[l] += rg.size[c]
			rg.rfirst[l] = min(rg.rfirst[l], rg.first[c])
			rg.free += int(rg.size[c])
		}
	}
	rg.largest = -1
	for l, s := range rg.rsize {
		if b := rg.largest; b < 0 || s > rg.rsize[b] || s == rg.rsize[b] && rg.rfirst[l] < rg.rfirst[b] {
			rg.largest = int32(l)
		}
	}
}

// relabelRegions brings the labelling up to date after an edit of the
// cells in [x0, x1) × [y0, y1), which must not be empty.
func (g *Grid) relabelRegions(x0, y0, x1, y1 int) {
	rg := &g.rg
	tx0, ty0 := x0>>tileShift, y0>>tileShift
	tx1, ty1 := (x1-1)>>tileShift, (y1-1)>>tileShift
	sc := &rg.scratch
	for ty := ty0; ty <= ty1; ty++ {
		for tx := tx0; tx <= tx1; tx++ {
			t := ty*rg.ntx + tx
			tr := &rg.tiles[t]
			rg.unused = append(rg.unused, tr.comps...)
			n := g.labelTile(t, sc)
			ids := tr.comps[:0]
			for range n {
				if k := len(rg.unused); k > 0 {
					ids = append(ids, rg.unused[k-1])
					rg.unused = rg.unused[:k-1]
				} else {
					ids = append(ids, int32(len(rg.label)))
					rg.label = append(rg.label, -1)
					rg.size, rg.first = append(rg.size, 0), append(rg.first, 0)
				}
			}
			tr.comps = ids
			g.countTile(t)
		}
	}
	// The links of the edited tiles, and those of the tiles to their left
	// and above, which end in them.
	for ty := max(ty0-1, 0); ty <= ty1; ty++ {
		for tx := max(tx0-1, 0); tx <= tx1; tx++ {
			g.linkTile(ty*rg.ntx + tx)
		}
	}
	g.joinRegions()
}

// clone returns a copy of rg that shares nothing with it.
func (rg *regions) clone() regions {
	c := regions{ntx: rg.ntx, nty: rg.nty, n: rg.n,
		comp: slices.Clone(rg.comp), label: slices.Clone(rg.label), unused: slices.Clone(rg.unused),
		size: slices.Clone(rg.size), first: slices.Clone(rg.first),
		rsize: slices.Clone(rg.rsize), rfirst: slices.Clone(rg.rfirst), free: rg.free, largest: rg.largest}
	c.tiles = make([]tileRegions, len(rg.tiles))
	for t, tr := range rg.tiles {
		c.tiles[t] = tileRegions{comps: slices.Clone(tr.comps), links: slices.Clone(tr.links)}
	}
	return c
}

// compID returns the ID of the component of cell (x, y) of the grid, -1
// when it is blocked: its number within its tile, looked up in the tile's
// comps. [Grid.Region] does the same before it reads the label.
func (g *Grid) compID(x, y int) int32 {
	rg := &g.rg
	c := rg.comp[g.pidx(x, y)]
	if c == noComp {
		return -1
	}
	return rg.tiles[(y>>tileShift)*rg.ntx+(x>>tileShift)].comps[c]
}
