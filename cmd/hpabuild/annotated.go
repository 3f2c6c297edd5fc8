package main

import (
	"io"
	"runtime"
	"time"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/atomicfile"
)

// buildAnnotated builds the annotated graph of g for units of the given
// sizes with f's options, writes it to f.out atomically and prints its
// statistics; done ends the progress bar, if any.
func buildAnnotated(stdout io.Writer, f *flags, g *grid.Grid, sizes []int, done func()) error {
	classes := make([]hpa.Class, len(sizes))
	for i, k := range sizes {
		classes[i] = hpa.Class{Size: k}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	t0 := time.Now()
	a, err := hpa.BuildAnnotated(g, classes, f.opt)
	elapsed := time.Since(t0)
	runtime.GC()
	runtime.ReadMemStats(&after)
	done()
	if err != nil {
		return err
	}
	size, err := atomicfile.Write(f.out, func(w io.Writer) error {
		_, err := a.WriteTo(w)
		return err
	})
	if err != nil {
		return err
	}
	st := a.Stats()
	w := &errWriter{w: stdout}
	w.printf("map           %s (%d×%d, %v)\n", f.mapPath, g.Width(), g.Height(), g.Connectivity())
	w.printf("graph         %s (annotated, unit sizes %v)\n", f.out, sizes)
	w.printf("cluster size  %d\n", a.ClusterSize())
	w.printf("levels        %d\n", st.Levels)
	w.printf("clusters      %d\n", st.Clusters)
	w.printf("entrances     %d (summed over the sizes)\n", st.Entrances)
	w.printf("nodes         %d (per size %v)\n", st.Nodes, st.ClassNodes)
	w.printf("edges         %d (per size %v)\n", st.Edges, st.ClassEdges)
	w.printf("higher levels %d nodes, %d edges\n", st.LevelNodes, st.LevelEdges)
	w.printf("build         %.1f ms\n", float64(elapsed.Microseconds())/1e3)
	w.printf("graph memory  %.1f MiB (heap after the build less before, the sizes' grids included)\n", float64(int64(after.HeapAlloc)-int64(before.HeapAlloc))/(1<<20))
	w.printf("file size     %d bytes (%.1f KiB)\n", size, float64(size)/1024)
	return w.err
}
