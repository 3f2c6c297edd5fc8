package hpa_test

import (
	"image"
	"runtime"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
)

// annotatedClasses are the classes of BenchmarkAnnotated: sizes 1 to 3,
// and sizes 1 and 2 with swampFilter.
func annotatedClasses() []hpa.Class {
	f := swampFilter()
	return []hpa.Class{{}, {Size: 2}, {Size: 3}, {Filter: f}, {Size: 2, Filter: f}}
}

// BenchmarkAnnotated compares, on Berlin_0_1024 for the classes of
// annotatedClasses, one annotated graph, of the default levels and of one,
// with the classes' own graphs (Classes), of one level and of the default
// levels: build/… builds them, reporting the live heap added in MB (the
// derived grids included, alike for all) and the abstract nodes and edges
// (of level 1); query/… answers 50 queries of each class between cells of
// the largest region, reporting the mean cost over each class's exact
// optimum ("excess-%"). The builds run once whatever -benchtime: their
// time is that of the first run of build/… (-benchtime 1x).
func BenchmarkAnnotated(b *testing.B) {
	g, _ := testmap.MovingAI(b, "Berlin_0_1024.map")
	benchAnnotated(b, g, annotatedClasses(), 50, 0,
		[]string{"annotated", "annotated-1level", "classes-1level", "classes"})
}

// BenchmarkAnnotatedWorld is BenchmarkAnnotated on the 4096² demo world of
// mapgen (seed 0) for sizes 1 to 3, with 10 long queries a class (ends
// more than 2 500 cells apart on the longer axis), for the annotated graph
// of the default levels and of one, and the classes' graphs of the default
// levels.
func BenchmarkAnnotatedWorld(b *testing.B) {
	g, err := mapgen.World(mapgen.WorldOptions{Width: 4096, Height: 4096})
	if err != nil {
		b.Fatal(err)
	}
	benchAnnotated(b, g, []hpa.Class{{}, {Size: 2}, {Size: 3}}, 10, 2500, []string{"annotated", "annotated-1level", "classes"})
}

// benchAnnotated runs the builds and queries of BenchmarkAnnotated on g
// for the named graphs: n queries a class, between cells of the largest
// region at least apart cells apart along the longer axis.
func benchAnnotated(b *testing.B, g *grid.Grid, classes []hpa.Class, n, apart int, names []string) {
	build := map[string]func() (any, error){
		"annotated":        func() (any, error) { return hpa.BuildAnnotated(g, classes, hpa.Options{}) },
		"annotated-1level": func() (any, error) { return hpa.BuildAnnotated(g, classes, hpa.Options{Levels: 1}) },
		"classes-1level": func() (any, error) {
			return hpa.BuildClasses(g, classes, hpa.Options{Levels: 1})
		},
		"classes": func() (any, error) { return hpa.BuildClasses(g, classes, hpa.Options{}) },
	}
	built := map[string]any{}
	for _, name := range names {
		b.Run("build/"+name, func(b *testing.B) {
			var heap uint64
			v := built[name]
			for b.Loop() {
				if v != nil {
					continue // built once: a query benchmark's -benchtime would rebuild it
				}
				h0 := heapNow()
				var err error
				if v, err = build[name](); err != nil {
					b.Fatal(err)
				}
				heap = heapNow() - h0
			}
			built[name] = v
			b.ReportMetric(float64(heap)/(1<<20), "live-MB")
			nodes, edges := 0, 0
			switch v := v.(type) {
			case *hpa.Annotated:
				st := v.Stats()
				nodes, edges = st.Nodes, st.Edges
			case *hpa.Classes:
				for i := range v.Len() {
					st := v.Graph(i).Stats()
					nodes, edges = nodes+st.Nodes, edges+st.Edges
				}
			}
			b.ReportMetric(float64(nodes), "nodes")
			b.ReportMetric(float64(edges), "edges")
		})
	}
	a, _ := built[names[0]].(*hpa.Annotated)
	if a == nil {
		return
	}
	pairs := make([][][2]image.Point, len(classes))
	opt := make([][]float64, len(classes))
	for i := range classes {
		cg := a.Grid(i)
		cell, _ := cg.LargestRegion()
		r := testmap.NewRand(int64(i))
		exact := grid.NewSearcher(cg)
		for len(pairs[i]) < n {
			p, _ := cg.RandomFree(r, cell)
			q, _ := cg.RandomFree(r, cell)
			if d := p.Sub(q); max(d.X, -d.X, d.Y, -d.Y) < apart {
				continue
			}
			_, res, err := exact.AppendPath(nil, p, q, grid.Query{})
			if err != nil {
				b.Fatal(err)
			}
			pairs[i] = append(pairs[i], [2]image.Point{p, q})
			opt[i] = append(opt[i], res.Cost)
		}
	}
	for _, name := range names {
		v := built[name]
		if v == nil {
			continue
		}
		b.Run("query/"+name, func(b *testing.B) {
			buf := make([]image.Point, 0, 1<<14)
			var ask func(i int, p [2]image.Point) hpa.Result
			switch v := v.(type) {
			case *hpa.Annotated:
				q := hpa.NewAnnotatedSearcher(v)
				ask = func(i int, p [2]image.Point) hpa.Result {
					_, res, err := q.AppendPath(buf[:0], i, p[0], p[1], hpa.Query{})
					if err != nil {
						b.Fatal(err)
					}
					return res
				}
			case *hpa.Classes:
				qs := make([]*hpa.Searcher, v.Len())
				for i := range qs {
					qs[i] = hpa.NewSearcher(v.Graph(i))
				}
				ask = func(i int, p [2]image.Point) hpa.Result {
					_, res, err := qs[i].AppendPath(buf[:0], p[0], p[1], hpa.Query{})
					if err != nil {
						b.Fatal(err)
					}
					return res
				}
			}
			var excess float64
			n := 0
			for i := range classes { // warm: the graphs keep the paths they search
				for k, p := range pairs[i] {
					if res := ask(i, p); opt[i][k] > 0 {
						excess += res.Cost/opt[i][k] - 1
						n++
					}
				}
			}
			for b.Loop() {
				for i := range classes {
					for _, p := range pairs[i] {
						ask(i, p)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(classes)*n), "ns/query")
			b.ReportMetric(100*excess/float64(n), "excess-%")
		})
	}
	runtime.KeepAlive(built)
}
