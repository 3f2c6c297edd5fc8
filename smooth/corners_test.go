package smooth

import (
	"image"
	"math/rand/v2"
	"testing"
)

// cornerTurnsByWalk is AppendCornerTurns as it was before corners kept the
// corners it found, each stride walked from the last seen corner: the
// oracle of the faster pass.
func cornerTurnsByWalk(dst []image.Point, path []image.Point, los LineOfSight) []image.Point {
	dst, done := begin(dst, path, los)
	if done {
		return dst
	}
	advance := func(j, n int) (int, int) {
		k := 0
		for k < n && j < len(path)-1 {
			j = nextCorner(path, j)
			k++
		}
		return j, k
	}
	last := len(path) - 1
	for i := 0; i < last; {
		seen := nextCorner(path, i)
		stride := 1
		unseen, gap := -1, 0
		for seen < last {
			probe, n := advance(seen, stride)
			if los(path[i], path[probe]) {
				seen, stride = probe, stride*2
				continue
			}
			unseen, gap = probe, n
			break
		}
		for unseen >= 0 && gap > 1 {
			mid, n := advance(seen, gap/2)
			if los(path[i], path[mid]) {
				seen, gap = mid, gap-n
			} else {
				unseen, gap = mid, n
			}
		}
		dst = append(dst, path[seen])
		i = seen
	}
	return dst
}

// TestCornerTurnsSame checks AppendCornerTurns against the walk of every
// stride from the last seen corner, on random walks of a few to thousands
// of corners (more than the corners kept in its array) and lines of sight
// that are not monotone along the path: random but fixed per pair, and
// limited by distance.
func TestCornerTurnsSame(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	dirs := []image.Point{{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {1, -1}}
	long := 0
	for round := range 600 {
		n := []int{3, 20, 400, 6000}[round%4]
		path := []image.Point{{0, 0}}
		for len(path) < n {
			d := dirs[r.IntN(len(dirs))]
			for k := 1 + r.IntN(6); k > 0 && len(path) < n; k-- {
				path = append(path, path[len(path)-1].Add(d))
			}
		}
		seed := r.Uint64()
		reach, odds := 5+r.IntN(300), uint64(7)
		if round%3 == 0 { // legs over more corners than the array keeps
			reach, odds = 1<<30, uint64(40+r.IntN(200))
		}
		los := func(a, b image.Point) bool {
			d := b.Sub(a)
			if max(d.X, -d.X, d.Y, -d.Y) > reach {
				return false
			}
			h := uint64(a.X*73856093^a.Y*19349663^b.X*83492791^b.Y*2654435761) ^ seed
			return h%odds != 0
		}
		got := AppendCornerTurns(nil, path, los)
		want := cornerTurnsByWalk(nil, path, los)
		if len(got) != len(want) {
			t.Fatalf("round %d (%d points): %d turns, want %d", round, n, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("round %d (%d points): turn %d at %v, want %v", round, n, i, got[i], want[i])
			}
		}
		work := append([]image.Point(nil), path...)
		inPlace := AppendCornerTurns(work[:0], work, los)
		for i := range got {
			if inPlace[i] != got[i] {
				t.Fatalf("round %d: in place, turn %d at %v, want %v", round, i, inPlace[i], got[i])
			}
		}
		long += longLegs(path, got, 256)
	}
	if long == 0 {
		t.Error("no leg ran over more corners than the array keeps")
	}
}

// longLegs counts the legs of turns, points of path, that run over more
// than k corners of it.
func longLegs(path, turns []image.Point, k int) int {
	long, at, corners := 0, 1, 0
	for i := 1; i < len(path) && at < len(turns); i++ {
		if i == len(path)-1 || path[i+1].Sub(path[i]) != path[i].Sub(path[i-1]) {
			corners++ // the last point counts as a corner, as nextCorner does
		}
		if path[i] == turns[at] {
			if corners > k {
				long++
			}
			at, corners = at+1, 0
		}
	}
	return long
}
