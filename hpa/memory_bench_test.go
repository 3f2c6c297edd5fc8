package hpa_test

import (
	"fmt"
	"runtime"
	"testing"
	"time"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
)

// heapNow returns the bytes of live heap after a collection.
func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// BenchmarkMemory reports the bytes per cell of the grid (cells, moves,
// bitsets, regions), its JPS+ table, a grid searcher, and the HPA* graph
// (level 1 and the levels above; the tables of distances its clusters
// keep for queries' ends, and the paths of its edges that refinement
// keeps, once FillTables and FillPaths have filled them all, with the
// seconds those took), on Berlin_0_1024 scaled ×4 (4096²) and
// ×16 (16384², the largest grid, 2²⁸ cells: about 8 GB in all, so only
// with -bench 'Memory/16384'). Run with -benchtime 1x; the figures are
// live heap after a collection, as metrics B/cell.
func BenchmarkMemory(b *testing.B) {
	g0, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	for _, k := range []int{4, 16} {
		b.Run(fmt.Sprintf("%d", 1024*k), func(b *testing.B) {
			for b.Loop() {
				h0 := heapNow()
				g, err := mapgen.Scale(g0, k)
				if err != nil {
					b.Fatal(err)
				}
				cells := float64(g.Width() * g.Height())
				h1 := heapNow()
				hg, err := hpa.Build(g, hpa.Options{})
				if err != nil {
					b.Fatal(err)
				}
				h2 := heapNow()
				s := grid.NewSearcher(g)
				h3 := heapNow()
				g.BuildJumps()
				h4 := heapNow()
				t0 := time.Now()
				hg.FillTables()
				tables := time.Since(t0)
				h5 := heapNow()
				t0 = time.Now()
				if err := hg.FillPaths(); err != nil {
					b.Fatal(err)
				}
				paths := time.Since(t0)
				h6 := heapNow()
				b.ReportMetric(float64(h1-h0)/cells, "grid-B/cell")
				b.ReportMetric(float64(h2-h1)/cells, "hpa-B/cell")
				b.ReportMetric(float64(h3-h2)/cells, "searcher-B/cell")
				b.ReportMetric(float64(h4-h3)/cells, "jps+-B/cell")
				b.ReportMetric(float64(h5-h4)/cells, "tables-B/cell")
				b.ReportMetric(float64(h6-h5)/cells, "paths-B/cell")
				b.ReportMetric(tables.Seconds(), "filltables-s")
				b.ReportMetric(paths.Seconds(), "fillpaths-s")
				b.ReportMetric(float64(hg.Stats().Nodes), "nodes")
				runtime.KeepAlive(s)
				runtime.KeepAlive(hg)
			}
		})
	}
}
