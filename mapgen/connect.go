package mapgen

import (
	"image"
	"sort"

	"github.com/cairn-nav/cairn/internal/unionfind"
)

// tinyPocket is the size below which connect fills a closed-off pocket
// instead of carving a passage to it.
const tinyPocket = 100

// runs labels the connected regions of a map's free cells (4-connected, the
// regions of [grid.Grid.Region] for both connectivities) through its row
// runs: maximal horizontal stretches of free cells, joined with a union-find
// forest. It needs memory per run, not per cell.
type runs struct {
	w, h   int
	row    []int32          // row[y] is the index of the first run of row y; row[h] the number of runs
	x0, x1 []int32          // run i covers the cells [x0[i], x1[i]) of its row
	root   unionfind.Forest // per run; after labelRuns, the first run (in row-major order) of its region
	size   []int            // per root: the number of cells of its region
}

func labelRuns(free []bool, w, h int) *runs {
	// Count the runs first, so that their slices are allocated once.
	n := 0
	for y := range h {
		prev := false
		for _, f := range free[y*w : (y+1)*w] {
			if f && !prev {
				n++
			}
			prev = f
		}
	}
	l := &runs{w: w, h: h, row: make([]int32, h+1),
		x0: make([]int32, 0, n), x1: make([]int32, 0, n), root: make(unionfind.Forest, 0, n)}
	for y := range h {
		l.row[y] = int32(len(l.x0))
		line := free[y*w : (y+1)*w]
		for x := 0; x < w; {
			if !line[x] {
				x++
				continue
			}
			s := x
			for x < w && line[x] {
				x++
			}
			l.x0 = append(l.x0, int32(s))
			l.x1 = append(l.x1, int32(x))
			l.root = append(l.root, int32(len(l.root)))
		}
		if y == 0 {
			continue
		}
		// Join the runs that overlap a run of the row above.
		i, iEnd := l.row[y-1], l.row[y]
		j, jEnd := l.row[y], int32(len(l.x0))
		for i < iEnd && j < jEnd {
			if l.x0[i] < l.x1[j] && l.x0[j] < l.x1[i] {
				l.root.Union(i, j)
			}
			if l.x1[i] < l.x1[j] {
				i++
			} else {
				j++
			}
		}
	}
	l.row[h] = int32(len(l.x0))
	// Every parent precedes its child, so one pass in order finds the roots.
	l.size = make([]int, len(l.root))
	for i := range l.root {
		l.root[i] = l.root[l.root[i]]
		l.size[l.root[i]] += int(l.x1[i] - l.x0[i])
	}
	return l
}

// at returns the root of the run holding p, or -1 when p was blocked or
// outside the map when the runs were labelled.
func (l *runs) at(p image.Point) int32 {
	if uint(p.X) >= uint(l.w) || uint(p.Y) >= uint(l.h) {
		return -1
	}
	lo, hi := int(l.row[p.Y]), int(l.row[p.Y+1])
	// The last run of the row that starts at or before p.X.
	i := lo + sort.Search(hi-lo, func(k int) bool { return int(l.x0[lo+k]) > p.X }) - 1
	if i < lo || int(l.x1[i]) <= p.X {
		return -1
	}
	return l.root[i]
}

// rowOf returns the row of run i.
func (l *runs) rowOf(i int32) int {
	return sort.Search(l.h, func(y int) bool { return l.row[y+1] > i })
}

// connect makes all free cells one region. Pockets of fewer than tinyPocket
// cells are filled. From the top-left cell of each larger region apart from
// the largest, it carves the shortest straight passage, up, left, right or
// down, that reaches a region already joined; a region no such passage
// reaches is filled.
func (m *world) connect() {
	l := labelRuns(m.free, m.w, m.h)
	main := int32(-1)
	for i, r := range l.root {
		if int32(i) == r && (main < 0 || l.size[i] > l.size[main]) {
			main = r
		}
	}
	if main < 0 {
		return
	}
	const (
		open = iota
		joined
		filled
	)
	state := make([]uint8, len(l.root)) // per root
	state[main] = joined
	// Tiny pockets first, so that a passage carved later through one stays
	// open.
	for i, r := range l.root {
		if r != main && l.size[r] < tinyPocket {
			if int32(i) == r {
				state[r] = filled
			}
			m.span(l.rowOf(int32(i)), int(l.x0[i]), int(l.x1[i]), false)
		}
	}
	bounds := image.Rect(0, 0, m.w, m.h)
	dirs := [4]image.Point{{0, -1}, {-1, 0}, {1, 0}, {0, 1}}
	for i, r := range l.root {
		if int32(i) != r || state[r] != open {
			continue
		}
		start := image.Pt(int(l.x0[i]), l.rowOf(r))
		best, bestDir := -1, image.Point{}
		for _, d := range dirs {
			for n, p := 1, start.Add(d); p.In(bounds) && (best < 0 || n < best); n, p = n+1, p.Add(d) {
				if q := l.at(p); q >= 0 && state[q] == joined {
					best, bestDir = n, d
					break
				}
			}
		}
		if best < 0 {
			state[r] = filled
			for j := i; j < len(l.root); j++ {
				if l.root[j] == r {
					m.span(l.rowOf(int32(j)), int(l.x0[j]), int(l.x1[j]), false)
				}
			}
			continue
		}
		state[r] = joined
		for n, p := 1, start.Add(bestDir); n < best; n, p = n+1, p.Add(bestDir) {
			m.free[p.Y*m.w+p.X] = true
			if q := l.at(p); q >= 0 && state[q] == open {
				state[q] = joined
			}
		}
	}
}
