package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/go-gl/mathgl/mgl64"
)

// editsFlags holds the flags of "pathfind edits".
type editsFlags struct {
	mapPath    string
	n          int
	wall       string
	seed       uint64
	withHPA    bool
	graph      string
	withMesh   bool
	tile       int
	check      bool
	asJSON     bool
	cpuProfile string
}

// setupEdits defines the flags of "pathfind edits".
func setupEdits(fs *flag.FlagSet) func(io.Writer) error {
	f := &editsFlags{}
	fs.StringVar(&f.mapPath, "map", "", "Moving AI .map `file` (required)")
	fs.IntVar(&f.n, "n", 20, "put up and take down `N` walls: 2N edits")
	fs.StringVar(&f.wall, "wall", "12x1", "the walls' size, `W`x`H` cells")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the walls' places")
	fs.BoolVar(&f.withHPA, "hpa", false, "after each edit, also update an HPA* graph (hpa.Graph.Update)")
	fs.StringVar(&f.graph, "graph", "", "with -hpa, load the graph from `file` (written by hpabuild) instead of building it")
	fs.BoolVar(&f.withMesh, "navmesh", false, "after each edit, also bring the navmesh up to date: navmesh.Mesh.Update of its tiles the edit\n"+
		"touches, or with -tile 0 a new navmesh.FromGrid")
	fs.IntVar(&f.tile, "tile", 64, "with -navmesh, the mesh's tile side `T` in cells (0: no tiles, the mesh is built again)")
	fs.BoolVar(&f.check, "check", false, "at the end, check the edited grid's regions (and with -hpa the graph's answers to\n"+
		"200 queries) against fresh builds; a difference is an error")
	fs.BoolVar(&f.asJSON, "json", false, "print the summary as one JSON object")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the edits to `file`, for go tool pprof")
	return f.run
}

// editStage is what one kind of work cost over the edits.
type editStage struct {
	MedianMS  float64 `json:"median_ms"`
	MaxMS     float64 `json:"max_ms"`
	MeanBytes float64 `json:"mean_bytes"` // allocated per edit
	times     []time.Duration
	bytes     uint64
}

// editsSummary is the result of "pathfind edits".
type editsSummary struct {
	Map        string     `json:"map"`
	Edits      int        `json:"edits"`
	Wall       string     `json:"wall"`
	Seed       uint64     `json:"seed"`
	JumpsMS    float64    `json:"jump_table_ms"` // building the table before the edits
	JumpTable  bool       `json:"jump_table"`    // whether the grid keeps one
	Grid       editStage  `json:"grid"`
	HPA        *editStage `json:"hpa,omitempty"`
	Navmesh    *editStage `json:"navmesh,omitempty"`
	Checked    bool       `json:"checked"`
	GraphNodes int        `json:"hpa_nodes,omitempty"`
}

func (f *editsFlags) parseWall() (image.Point, error) {
	ws, hs, ok := strings.Cut(f.wall, "x")
	w, errw := strconv.Atoi(ws)
	h, errh := strconv.Atoi(hs)
	if !ok || errw != nil || errh != nil || w < 1 || h < 1 {
		return image.Point{}, cli.Usagef("-wall %q, want WxH with whole W, H ≥ 1, such as 12x1", f.wall)
	}
	return image.Pt(w, h), nil
}

// run is the action of "pathfind edits": it loads the map, builds what the
// flags ask for, then puts up and takes down -n walls in place, timing each
// edit and what follows it.
func (f *editsFlags) run(stdout io.Writer) error {
	switch {
	case f.mapPath == "":
		return cli.Usagef("-map is required")
	case f.n < 1:
		return cli.Usagef("-n %d, want 1 or more", f.n)
	case f.graph != "" && !f.withHPA:
		return cli.Usagef("-graph needs -hpa")
	}
	size, err := f.parseWall()
	if err != nil {
		return err
	}
	if f.cpuProfile != "" {
		if err := atomicfile.Check(f.cpuProfile); err != nil {
			return fmt.Errorf("-cpuprofile %w", err)
		}
	}
	g, err := loadMap(f.mapPath)
	if err != nil {
		return err
	}
	walls, err := placeWalls(g, size, f.n, f.seed)
	if err != nil {
		return err
	}
	sum := &editsSummary{Map: f.mapPath, Edits: 2 * f.n, Wall: f.wall, Seed: f.seed}
	t0 := time.Now()
	g.BuildJumps()
	sum.JumpsMS = ms(time.Since(t0))
	sum.JumpTable = g.HasJumpTable()
	var hg *hpa.Graph
	if f.withHPA {
		if hg, err = loadGraph(g, f.graph); err != nil {
			return err
		}
		sum.HPA = &editStage{}
		sum.GraphNodes = hg.Stats().Nodes
	}
	var mesh *navmesh.Mesh
	if f.withMesh {
		sum.Navmesh = &editStage{}
		if f.tile > 0 {
			if mesh, err = navmesh.FromGrid(g, navmesh.Options{TileSize: f.tile}); err != nil {
				return err
			}
		}
	}
	edits := func() error {
		for i := range 2 * f.n {
			r := walls[i/2]
			free := i%2 == 1 // put up, then take down
			if err := timed(&sum.Grid, func() error { g.SetCells(r, free); return nil }); err != nil {
				return err
			}
			if hg != nil {
				if err := timed(sum.HPA, func() (err error) { hg, err = hg.Update(g, r); return err }); err != nil {
					return err
				}
			}
			if f.withMesh {
				update := func() (err error) {
					if mesh == nil {
						_, err = navmesh.FromGrid(g, navmesh.Options{})
						return err
					}
					mesh, err = mesh.Update(g, r)
					return err
				}
				if err := timed(sum.Navmesh, update); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := profileTo(f.cpuProfile, edits); err != nil {
		return err
	}
	for _, st := range []*editStage{&sum.Grid, sum.HPA, sum.Navmesh} {
		if st != nil {
			st.summarise()
		}
	}
	if f.check {
		if err := checkEdited(g, hg, f.seed); err != nil {
			return err
		}
		if mesh != nil {
			if err := checkMesh(g, mesh, f.tile, f.seed); err != nil {
				return err
			}
		}
		sum.Checked = true
	}
	return f.print(stdout, sum)
}

// placeWalls picks n places for a wall of the given size where every cell
// is free, so that each edit changes all its cells.
func placeWalls(g *grid.Grid, size image.Point, n int, seed uint64) ([]image.Rectangle, error) {
	if size.X > g.Width() || size.Y > g.Height() {
		return nil, cli.Usagef("-wall %dx%d does not fit the %d×%d map", size.X, size.Y, g.Width(), g.Height())
	}
	rng := rand.New(rand.NewPCG(seed, 0x6564697473))
	walls := make([]image.Rectangle, 0, n)
	for tries := 0; len(walls) < n; tries++ {
		if tries > 1000*n {
			return nil, fmt.Errorf("found free places for %d of %d walls of %dx%d cells", len(walls), n, size.X, size.Y)
		}
		p := image.Pt(rng.IntN(g.Width()-size.X+1), rng.IntN(g.Height()-size.Y+1))
		r := image.Rectangle{Min: p, Max: p.Add(size)}
		if allFree(g, r) {
			walls = append(walls, r)
		}
	}
	return walls, nil
}

func allFree(g *grid.Grid, r image.Rectangle) bool {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if !g.Passable(image.Pt(x, y)) {
				return false
			}
		}
	}
	return true
}

// timed runs work, adding its time and the bytes it allocated to st.
func timed(st *editStage, work func() error) error {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	err := work()
	d := time.Since(t0)
	runtime.ReadMemStats(&m1)
	st.times = append(st.times, d)
	st.bytes += m1.TotalAlloc - m0.TotalAlloc
	return err
}

func (st *editStage) summarise() {
	ts := slices.Clone(st.times)
	slices.Sort(ts)
	st.MedianMS = ms(ts[len(ts)/2])
	st.MaxMS = ms(ts[len(ts)-1])
	st.MeanBytes = float64(st.bytes) / float64(len(ts))
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }

// profileTo runs work with a CPU profile written to path, or without one
// when path is empty.
func profileTo(path string, work func() error) error {
	if path == "" {
		return work()
	}
	var werr error
	_, err := atomicfile.Write(path, func(w io.Writer) error {
		if err := pprof.StartCPUProfile(w); err != nil {
			return err
		}
		werr = work()
		pprof.StopCPUProfile()
		return nil
	})
	if werr != nil {
		return werr
	}
	if err != nil {
		return fmt.Errorf("-cpuprofile: %w", err)
	}
	return nil
}

// checkEdited compares g, edited in place, with a grid built afresh from
// its cells: the same regions (as a partition of the cells); and hg, when
// not nil, with a graph built afresh: the same answers to 200 queries.
func checkEdited(g *grid.Grid, hg *hpa.Graph, seed uint64) error {
	w, h := g.Width(), g.Height()
	free := make([]bool, w*h)
	for y := range h {
		for x := range w {
			free[y*w+x] = g.Passable(image.Pt(x, y))
		}
	}
	fresh, err := grid.New(w, h, free, grid.Options{})
	if err != nil {
		return err
	}
	if a, b := g.NumRegions(), fresh.NumRegions(); a != b {
		return fmt.Errorf("check: %d regions after the edits, %d in a fresh build", a, b)
	}
	to := make([]int32, g.NumRegions()) // edited label → fresh label, plus one
	for y := range h {
		for x := range w {
			p := image.Pt(x, y)
			a, b := g.Region(p), fresh.Region(p)
			if (a < 0) != (b < 0) {
				return fmt.Errorf("check: cell %s is in region %d after the edits, %d in a fresh build", pointString(p), a, b)
			}
			if a < 0 {
				continue
			}
			if to[a] == 0 {
				to[a] = b + 1
			} else if to[a] != b+1 {
				return fmt.Errorf("check: cell %s splits region %d of the edited grid against a fresh build", pointString(p), a)
			}
		}
	}
	if hg == nil {
		return nil
	}
	fg, err := hpa.Build(fresh, hg.Options())
	if err != nil {
		return err
	}
	if a, b := hg.Stats(), fg.Stats(); a != b {
		return fmt.Errorf("check: graph after the updates %+v, fresh build %+v", a, b)
	}
	qu, qf := hpa.NewSearcher(hg), hpa.NewSearcher(fg)
	rng := rand.New(rand.NewPCG(seed, 0x636865636b))
	var pu, pf []image.Point
	for range 200 {
		a := image.Pt(rng.IntN(w), rng.IntN(h))
		b := image.Pt(rng.IntN(w), rng.IntN(h))
		if !g.Passable(a) || !g.Passable(b) {
			continue
		}
		var ru, rf hpa.Result
		var eu, ef error
		pu, ru, eu = qu.AppendPath(pu[:0], a, b, hpa.Query{})
		pf, rf, ef = qf.AppendPath(pf[:0], a, b, hpa.Query{})
		if (eu == nil) != (ef == nil) || ru.Status != rf.Status || ru.Cost != rf.Cost || !slices.Equal(pu, pf) {
			return fmt.Errorf("check: %s to %s: updated graph %+v (%v), fresh build %+v (%v)", pointString(a), pointString(b), ru, eu, rf, ef)
		}
	}
	return nil
}

func (f *editsFlags) print(w io.Writer, s *editsSummary) error {
	if f.asJSON {
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		_, err = w.Write(append(b, '\n'))
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "map         %s\n", s.Map)
	fmt.Fprintf(bw, "edits       %d in place (%d walls of %s cells put up and taken down, seed %d)\n", s.Edits, s.Edits/2, s.Wall, s.Seed)
	if s.JumpTable {
		fmt.Fprintf(bw, "jump table  built in %.1f ms before the edits\n", s.JumpsMS)
	} else {
		fmt.Fprintf(bw, "jump table  none (the map's runs are too short for it)\n")
	}
	stage := func(name string, st *editStage) {
		if st != nil {
			fmt.Fprintf(bw, "%-11s median %.3f ms, max %.3f ms, %s allocated an edit\n", name, st.MedianMS, st.MaxMS, byteSize(st.MeanBytes))
		}
	}
	stage("grid", &s.Grid)
	stage("hpa", s.HPA)
	stage("navmesh", s.Navmesh)
	if s.Checked {
		fmt.Fprintf(bw, "check       fresh builds agree\n")
	}
	return bw.Flush()
}

// byteSize formats a byte count with a binary unit.
func byteSize(b float64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", b/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

// checkMesh checks the navmesh brought up to date edit by edit against a
// fresh tiled build of the edited grid: the same polygons, vertices and
// portals, and the same answers to 200 random queries.
func checkMesh(g *grid.Grid, m *navmesh.Mesh, tile int, seed uint64) error {
	fresh, err := navmesh.FromGrid(g, navmesh.Options{TileSize: tile})
	if err != nil {
		return err
	}
	if m.NumPolys() != fresh.NumPolys() || m.NumVertices() != fresh.NumVertices() || m.NumPortals() != fresh.NumPortals() {
		return fmt.Errorf("check: the updated navmesh has %d polygons, %d vertices, %d portals; a fresh build %d, %d, %d",
			m.NumPolys(), m.NumVertices(), m.NumPortals(), fresh.NumPolys(), fresh.NumVertices(), fresh.NumPortals())
	}
	rng := rand.New(rand.NewPCG(seed, 0x6d657368))
	a, b := navmesh.NewSearcher(m), navmesh.NewSearcher(fresh)
	for k := 0; k < 200; {
		p := image.Pt(rng.IntN(g.Width()), rng.IntN(g.Height()))
		q := image.Pt(rng.IntN(g.Width()), rng.IntN(g.Height()))
		if !g.Passable(p) || !g.Passable(q) {
			continue
		}
		k++
		from, to := mgl64.Vec2{float64(p.X) + 0.5, float64(p.Y) + 0.5}, mgl64.Vec2{float64(q.X) + 0.5, float64(q.Y) + 0.5}
		_, ra, erra := a.AppendPath(nil, from, to, navmesh.Query{})
		_, rb, errb := b.AppendPath(nil, from, to, navmesh.Query{})
		if (erra == nil) != (errb == nil) || ra.Status != rb.Status || math.Abs(ra.Length-rb.Length) > 1e-9*max(1, rb.Length) {
			return fmt.Errorf("check: navmesh query %v → %v: updated %v %v (%v), fresh %v %v (%v)", p, q, ra.Status, ra.Length, erra, rb.Status, rb.Length, errb)
		}
	}
	return nil
}
