package grid_test

import (
	"image"
	"slices"
	"sync"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// TestConcurrentSearchers runs searchers on one shared grid from several
// goroutines and checks each gets the paths a lone searcher gets. Run it
// with -race: the grid must only be read.
func TestConcurrentSearchers(t *testing.T) {
	const seed = 21
	g := testmap.Random(seed, 80, 60, 0.2, grid.Options{})
	pairs := testmap.RandomPairs(testmap.NewRand(seed), g, 40)
	want := make([][]image.Point, len(pairs))
	s := grid.NewSearcher(g)
	for i, p := range pairs {
		want[i], _, _ = s.AppendPath(nil, p[0], p[1], grid.Query{})
	}
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 4 {
		wg.Go(func() {
			s := grid.NewSearcher(g)
			var path []image.Point
			for k := range 3 * len(pairs) {
				i := (k + w*7) % len(pairs)
				path, _, _ = s.AppendPath(path[:0], pairs[i][0], pairs[i][1], grid.Query{Plain: k%2 == 1})
				if k%2 == 0 && !slices.Equal(path, want[i]) {
					errs <- "goroutine path differs from the lone searcher's"
					return
				}
				if len(path) > 0 && !g.LineOfSight(path[0], path[0]) {
					errs <- "line of sight of a free cell to itself is false"
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("seed %d: %s", seed, e)
	}
}
