package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"image"
	"io"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/cairn-nav/cairn/navmesh"
)

// editsFlags holds the flags of "pathfind edits".
type editsFlags struct {
	mapPath    string
	n          int
	size       int
	seed       uint64
	withHPA    bool
	graph      string
	factor     int
	withMesh   bool
	tile       int
	meshPath   string
	scenPath   string
	check      bool
	queries    int
	asJSON     bool
	cpuProfile string
}

// setupEdits defines the flags of "pathfind edits".
func setupEdits(fs *flag.FlagSet) func(io.Writer) error {
	f := &editsFlags{}
	fs.StringVar(&f.mapPath, "map", "", "Moving AI .map `file` (required)")
	fs.IntVar(&f.n, "n", 20, "put up and take down `N` walls: 2N edits")
	fs.IntVar(&f.size, "size", 12, "each wall is `K`×1 or 1×K cells (K ≥ 1), across a random long path")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the walls' places and of the checked queries")
	fs.BoolVar(&f.withHPA, "hpa", false, "after each edit, also update an HPA* graph built in memory (hpa.Graph.Update)")
	fs.StringVar(&f.graph, "graph", "", "after each edit, also update the HPA* graph read from `file` (written by hpabuild); implies -hpa")
	fs.IntVar(&f.factor, "level-factor", 0, fmt.Sprintf("with -hpa, build the graph with level factor `F` (2 to %d; 0 chooses from the map size): smaller F\n"+
		"makes updates cheaper and long queries dearer (hpa.Options.LevelFactor; -graph files have their own)", hpa.MaxLevelFactor))
	fs.BoolVar(&f.withMesh, "navmesh", false, "after each edit, also bring the navmesh up to date: navmesh.Mesh.Update of its tiles the edit\n"+
		"touches, or with -tile 0 a new navmesh.FromGrid")
	fs.IntVar(&f.tile, "tile", 64, "with -navmesh, the mesh's tile side `T` in cells (0: no tiles, the mesh is built again)")
	fs.StringVar(&f.meshPath, "mesh", "", "with -navmesh, read the mesh from `file` (navbuild -tile T, with or without -landmarks) instead of\n"+
		"using the one built; Update keeps its landmarks across edits that only block cells")
	fs.StringVar(&f.scenPath, "scen", "", "with -navmesh, after the edits time the queries of the scenario `file` on the updated mesh's exact\n"+
		"search and with the grid search (jump points) on the grid")
	fs.BoolVar(&f.check, "check", true, "after every edit, compare each layer with a fresh build of the edited map; a difference makes\n"+
		"the exit status 1 (-check=false: timing only)")
	fs.IntVar(&f.queries, "queries", 20, "with -check, the random queries `Q` compared on each layer after every edit")
	fs.BoolVar(&f.asJSON, "json", false, "print the summary as one JSON object")
	fs.StringVar(&f.cpuProfile, "cpuprofile", "", "write a CPU profile of the edits to `file`, for go tool pprof (with -check=false,\n"+
		"or it holds the checks too)")
	return f.run
}

// The layers an edit updates, in the order they are updated.
const (
	layerGrid = iota
	layerHPA
	layerMesh
	numLayers
)

var layerNames = [numLayers]string{"grid", "hpa", "navmesh"}

// editsSummary is the result of "pathfind edits". Times are in
// microseconds; the keys of a layer not asked for are 0.
type editsSummary struct {
	Map            string `json:"map"`
	Seed           uint64 `json:"seed"`
	Size           int    `json:"size"`
	Queries        int    `json:"queries"` // compared on each layer after every edit; 0 with -check=false
	Edits          int    `json:"edits"`
	JumpTable      bool   `json:"jump_table"`
	HPANodes       int    `json:"hpa_nodes"`
	HPALevelFactor int    `json:"hpa_level_factor"` // of the graph; 0 without one
	NavmeshRebuild bool   `json:"navmesh_rebuild"`  // -tile 0: the navmesh is built again after each edit
	// The navmesh's landmarks before the edits and after the last.
	LandmarksBefore int `json:"navmesh_landmarks_before"`
	LandmarksAfter  int `json:"navmesh_landmarks_after"`
	// With -scen, the scenarios timed after the edits and the medians of
	// the navmesh's exact search and of the grid search.
	Scenarios        int     `json:"scenarios,omitempty"`
	ScenMeshMedianUS float64 `json:"scen_navmesh_us_median,omitempty"`
	ScenGridMedianUS float64 `json:"scen_grid_us_median,omitempty"`
	GridMedianUS     float64 `json:"grid_us_median"`
	GridMaxUS        float64 `json:"grid_us_max"`
	HPAMedianUS      float64 `json:"hpa_us_median"`
	HPAMaxUS         float64 `json:"hpa_us_max"`
	MeshMedianUS     float64 `json:"navmesh_us_median"`
	MeshMaxUS        float64 `json:"navmesh_us_max"`
	AllocMedian      uint64  `json:"alloc_bytes_median"` // all layers together, per edit
	GridBuildUS      float64 `json:"grid_build_us"`
	HPABuildUS       float64 `json:"hpa_build_us"`
	MeshBuildUS      float64 `json:"navmesh_build_us"`
	Checked          int     `json:"checked"`
	Mismatched       int     `json:"mismatched"`

	layers    [numLayers]bool // which layers were edited
	checkedBy [numLayers]int  // the query comparisons of each layer
	bad       *mismatches     // nil with -check=false
}

// run is the action of "pathfind edits": it measures, prints the summary,
// and then fails when a check found a mismatch.
func (f *editsFlags) run(stdout io.Writer) error {
	sum, err := f.measure()
	if err != nil {
		return err
	}
	if err := f.print(stdout, sum); err != nil {
		return err
	}
	if sum.bad != nil {
		return sum.bad.err(sum.Checked)
	}
	return nil
}

// measure loads the map, builds the layers the flags ask for from scratch
// (timed), places the walls, then puts up and takes down each in place,
// timing each layer's update and checking them all against fresh builds
// after every edit.
func (f *editsFlags) measure() (*editsSummary, error) {
	switch {
	case f.mapPath == "":
		return nil, cli.Usagef("-map is required")
	case f.n < 1:
		return nil, cli.Usagef("-n %d, want 1 or more", f.n)
	case f.size < 1:
		return nil, cli.Usagef("-size %d, want 1 or more", f.size)
	case f.tile < 0:
		return nil, cli.Usagef("-tile %d, want 0 or more", f.tile)
	case f.factor != 0 && (f.factor < 2 || f.factor > hpa.MaxLevelFactor):
		return nil, cli.Usagef("-level-factor %d, want 2 to %d", f.factor, hpa.MaxLevelFactor)
	case f.factor != 0 && f.graph != "":
		return nil, cli.Usagef("-level-factor with -graph: the graph file has its level factor")
	case f.meshPath != "" && (!f.withMesh || f.tile == 0):
		return nil, cli.Usagef("-mesh needs -navmesh and a -tile above 0: Update edits a mesh in tiles")
	case f.scenPath != "" && !f.withMesh:
		return nil, cli.Usagef("-scen needs -navmesh")
	case f.check && f.queries < 1:
		return nil, cli.Usagef("-queries %d, want 1 or more (or -check=false)", f.queries)
	}
	if f.cpuProfile != "" {
		if err := atomicfile.Check(f.cpuProfile); err != nil {
			return nil, fmt.Errorf("-cpuprofile %w", err)
		}
	}
	loaded, err := loadMap(f.mapPath)
	if err != nil {
		return nil, err
	}
	if w, h := loaded.Width(), loaded.Height(); f.size > max(w, h) {
		return nil, cli.Usagef("-size %d does not fit the %d×%d map", f.size, w, h)
	}
	sum := &editsSummary{Map: f.mapPath, Seed: f.seed, Size: f.size, Edits: 2 * f.n}
	sum.layers = [numLayers]bool{true, f.withHPA || f.graph != "", f.withMesh}

	free, opt := cellsOf(loaded)
	t0 := time.Now()
	g, err := grid.New(loaded.Width(), loaded.Height(), free, opt)
	if err != nil {
		return nil, err
	}
	g.BuildJumps()
	sum.GridBuildUS = micros(time.Since(t0))
	sum.JumpTable = g.HasJumpTable()

	var chk *editChecker
	if f.check {
		chk = newEditChecker(g, f.queries, f.tile, f.seed)
		sum.Queries, sum.bad = f.queries, &chk.bad
	}
	var hg *hpa.Graph
	if sum.layers[layerHPA] {
		if hg, err = f.buildGraph(g, sum, chk); err != nil {
			return nil, err
		}
		sum.HPANodes = hg.Stats().Nodes
		sum.HPALevelFactor = hg.LevelFactor()
	}
	var mesh *navmesh.Mesh
	if f.withMesh {
		t0 := time.Now()
		if mesh, err = navmesh.FromGrid(g, navmesh.Options{TileSize: f.tile}); err != nil {
			return nil, err
		}
		sum.MeshBuildUS = micros(time.Since(t0))
		sum.NavmeshRebuild = f.tile == 0
		if f.meshPath != "" {
			if mesh, err = readMeshFor(f.meshPath, g, navmesh.Options{TileSize: f.tile}); err != nil {
				return nil, err
			}
		}
		sum.LandmarksBefore = mesh.Landmarks()
	}
	walls, err := placeWalls(g, f.size, f.n, f.seed)
	if err != nil {
		return nil, err
	}
	if chk != nil {
		chk.start(hg) // its searchers are made before the edits
	}

	var times [numLayers][]time.Duration
	allocs := make([]uint64, 0, 2*f.n)
	edits := func() error {
		for i := range 2 * f.n {
			r, up := walls[i/2].rect, i%2 == 0 // put up, then take down
			var bytes uint64
			add := func(layer int, work func() error) error {
				d, b, err := timed(work)
				times[layer] = append(times[layer], d)
				bytes += b
				return err
			}
			if err := add(layerGrid, func() error { g.SetCells(r, !up); return nil }); err != nil {
				return err
			}
			if hg != nil && (skipHPAUpdate == nil || !skipHPAUpdate(i)) {
				if err := add(layerHPA, func() (err error) { hg, err = hg.Update(g, r); return err }); err != nil {
					return err
				}
			}
			if mesh != nil {
				update := func() (err error) {
					if f.tile == 0 {
						mesh, err = navmesh.FromGrid(g, navmesh.Options{})
						return err
					}
					// The mesh before is used no more: the next
					// Update writes into its arrays.
					old := mesh
					if mesh, err = mesh.Update(g, r); err == nil && mesh != old {
						old.Recycle()
					}
					return err
				}
				if err := add(layerMesh, update); err != nil {
					return err
				}
			}
			allocs = append(allocs, bytes)
			if chk != nil {
				what := "put up"
				if !up {
					what = "taken down"
				}
				if err := chk.check(fmt.Sprintf("edit %d of %d (wall %v %s)", i+1, 2*f.n, r, what), hg, mesh); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := profileTo(f.cpuProfile, edits); err != nil {
		return nil, err
	}
	sum.GridMedianUS, sum.GridMaxUS = medianMax(times[layerGrid])
	sum.HPAMedianUS, sum.HPAMaxUS = medianMax(times[layerHPA])
	sum.MeshMedianUS, sum.MeshMaxUS = medianMax(times[layerMesh])
	if mesh != nil {
		sum.LandmarksAfter = mesh.Landmarks()
	}
	if f.scenPath != "" {
		if err := timeScenarios(f.scenPath, g, mesh, sum); err != nil {
			return nil, err
		}
	}
	slices.Sort(allocs)
	sum.AllocMedian = allocs[(len(allocs)-1)/2]
	if chk != nil {
		sum.checkedBy = chk.checked
		for _, n := range chk.checked {
			sum.Checked += n
		}
		sum.Mismatched = chk.bad.n
	}
	return sum, nil
}

// skipHPAUpdate, when not nil, is asked before each edit's hpa.Graph.Update
// (edits counted from 0) and skips it when it says true: tests break the
// graph with it to see the checks catch it.
var skipHPAUpdate func(edit int) bool

// buildGraph returns the HPA* graph of g, read from -graph or built with
// the default options (and -level-factor), and times a build from scratch: with -graph, a build
// with the file's options that is only measured and, with chk, compared
// with the file's graph (a difference in their sizes is a mismatch).
func (f *editsFlags) buildGraph(g *grid.Grid, sum *editsSummary, chk *editChecker) (*hpa.Graph, error) {
	var read *hpa.Graph
	opt := hpa.Options{LevelFactor: f.factor}
	if f.graph != "" {
		var err error
		if read, err = loadGraph(g, f.graph); err != nil {
			return nil, err
		}
		opt = read.Options()
	}
	t0 := time.Now()
	built, err := hpa.Build(g, opt)
	if err != nil {
		return nil, err
	}
	sum.HPABuildUS = micros(time.Since(t0))
	if read == nil {
		return built, nil
	}
	if a, b := read.Stats(), built.Stats(); chk != nil && a != b {
		chk.bad.add("before the edits: hpa: the graph of %s has %+v, a fresh hpa.Build %+v", f.graph, a, b)
	}
	return read, nil
}

// cellsOf returns the cells of g and the options that make grid.New build
// a grid equal to it: its connectivity, terrain costs and area types.
func cellsOf(g *grid.Grid) ([]bool, grid.Options) {
	w, h := g.Width(), g.Height()
	free := make([]bool, w*h)
	areas := make([]uint8, w*h)
	var costs []float64
	if g.HasCosts() {
		costs = make([]float64, w*h)
	}
	for y := range h {
		for x := range w {
			i := y*w + x
			free[i] = g.Passable(image.Pt(x, y))
			areas[i] = g.Area(image.Pt(x, y))
			if costs != nil {
				costs[i] = g.Cost(image.Pt(x, y))
			}
		}
	}
	return free, grid.Options{Connectivity: g.Connectivity(), Costs: costs, Areas: areas}
}

// timed runs work and returns its wall-clock time and the bytes it
// allocated.
func timed(work func() error) (time.Duration, uint64, error) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t0 := time.Now()
	err := work()
	d := time.Since(t0)
	runtime.ReadMemStats(&m1)
	return d, m1.TotalAlloc - m0.TotalAlloc, err
}

// medianMax returns the median (the lower one of an even count) and the
// largest of ts in microseconds, or zeros when ts is empty.
func medianMax(ts []time.Duration) (median, largest float64) {
	if len(ts) == 0 {
		return 0, 0
	}
	ts = slices.Sorted(slices.Values(ts))
	return micros(ts[(len(ts)-1)/2]), micros(ts[len(ts)-1])
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
	fmt.Fprintf(bw, "edits       %d in place: %d walls of %d×1 or 1×%d cells across long paths, put up and taken down (seed %d)\n",
		s.Edits, s.Edits/2, s.Size, s.Size, s.Seed)
	builds := "grid " + micro(s.GridBuildUS)
	if s.JumpTable {
		builds += " (with its jump table)"
	} else {
		builds += " (no jump table: the map's runs are too short for it)"
	}
	if s.layers[layerHPA] {
		builds += fmt.Sprintf(", hpa %s (%d nodes, level factor %d)", micro(s.HPABuildUS), s.HPANodes, s.HPALevelFactor)
	}
	if s.layers[layerMesh] {
		if s.NavmeshRebuild {
			builds += fmt.Sprintf(", navmesh %s (no tiles)", micro(s.MeshBuildUS))
		} else {
			builds += fmt.Sprintf(", navmesh %s (tiles of %d)", micro(s.MeshBuildUS), f.tile)
		}
	}
	fmt.Fprintf(bw, "builds      %s, from scratch\n", builds)
	layer := func(name, how string, median, largest, build float64) {
		fmt.Fprintf(bw, "%-11s %smedian %s, max %s (%s)\n", name, how, micro(median), micro(largest), ofBuild(median, build))
	}
	layer("grid", "", s.GridMedianUS, s.GridMaxUS, s.GridBuildUS)
	if s.layers[layerHPA] {
		layer("hpa", "", s.HPAMedianUS, s.HPAMaxUS, s.HPABuildUS)
	}
	if s.layers[layerMesh] {
		how := ""
		if s.NavmeshRebuild {
			how = "a rebuild with navmesh.FromGrid (-tile 0): "
		}
		layer("navmesh", how, s.MeshMedianUS, s.MeshMaxUS, s.MeshBuildUS)
		if s.LandmarksBefore > 0 {
			fmt.Fprintf(bw, "landmarks   %d before the edits, %d after\n", s.LandmarksBefore, s.LandmarksAfter)
		}
		if s.Scenarios > 0 {
			fmt.Fprintf(bw, "queries     after the edits, %d scenarios: navmesh exact search median %s, grid search %s\n",
				s.Scenarios, micro(s.ScenMeshMedianUS), micro(s.ScenGridMedianUS))
		}
	}
	fmt.Fprintf(bw, "allocated   median %s an edit, all layers together\n", byteSize(float64(s.AllocMedian)))
	if s.bad != nil {
		var names []string
		for l, on := range s.layers {
			if on {
				names = append(names, layerNames[l])
			}
		}
		fmt.Fprintf(bw, "check       checked %d queries after every edit: %d mismatched (%d a layer: %s; %d in all, against fresh builds)\n",
			len(names)*s.Queries, s.Mismatched, s.Queries, strings.Join(names, ", "), s.Checked)
	} else {
		fmt.Fprintf(bw, "check       none (-check=false)\n")
	}
	return bw.Flush()
}

// micro formats a time in microseconds with two significant digits (three
// from 100), in µs, ms or s as fits.
func micro(us float64) string {
	v, unit := us, "µs"
	switch {
	case us >= 1e6:
		v, unit = us/1e6, "s"
	case us >= 1e3:
		v, unit = us/1e3, "ms"
	}
	if v >= 99.5 { // %.2g would write 1e+02
		return fmt.Sprintf("%.0f %s", v, unit)
	}
	return fmt.Sprintf("%.2g %s", v, unit)
}

// ofBuild says how an edit's median time compares with a build's.
func ofBuild(median, build float64) string {
	switch {
	case !(median > 0 && build > 0):
		return "against a build of " + micro(build)
	case build >= 1.5*median:
		return fmt.Sprintf("1/%.0f of a build", build/median)
	case median >= 1.5*build:
		return fmt.Sprintf("%.1f× a build", median/build)
	}
	return "about a build"
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
