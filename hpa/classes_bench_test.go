package hpa_test

import (
	"image"
	"runtime"
	"testing"

	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
)

// BenchmarkBuildClasses builds, on Berlin_0_1024, one plain graph (the
// baseline) and the classes of sizes 1 and 2 and of size 1 with
// swampFilter (whose grid has terrain costs, all 1 on this map), and
// reports the live heap they add, in MB, beside the time. Run with
// -benchtime 1x.
func BenchmarkBuildClasses(b *testing.B) {
	g, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	for _, bc := range []struct {
		name    string
		classes []hpa.Class
	}{
		{"plain", []hpa.Class{{}}},
		{"size2", []hpa.Class{{Size: 2}}},
		{"filter", []hpa.Class{{Filter: swampFilter()}}},
		{"3classes", []hpa.Class{{}, {Size: 2}, {Filter: swampFilter()}}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			var heap uint64
			for b.Loop() {
				h0 := heapNow()
				c, err := hpa.BuildClasses(g, bc.classes, hpa.Options{})
				if err != nil {
					b.Fatal(err)
				}
				heap = heapNow() - h0
				if _, res, err := hpa.NewSearcher(c.Graph(c.Len()-1)).AppendPath(nil, image.Pt(0, 0), image.Pt(1, 0), hpa.Query{}); err != nil || res.Cost == 0 {
					b.Fatalf("query on the last class: %v %v", res, err)
				}
				runtime.KeepAlive(c)
			}
			b.ReportMetric(float64(heap)/(1<<20), "live-MB")
		})
	}
}
