package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"image"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/internal/atomicfile"
	"github.com/cairn-nav/cairn/internal/meshcheck"
	"github.com/cairn-nav/cairn/navmesh"
)

// "pathfind route -mesh FILE" without -map answers between two points of a
// mesh file, which may have been built from a map or from GeoJSON polygons:
// the ends are points in world units rather than cells, and the answer is
// checked against the mesh's own polygons (meshcheck.go), there being no
// map to check it against.

// endFlag is a flag.Value for an end of a route, written "x,y" with finite
// numbers: beside -map it must name a cell (integers; the query runs from
// the cell's centre), with -mesh and no -map it is a point.
type endFlag struct {
	text string
	v    mgl64.Vec2
	set  bool
}

func (f *endFlag) String() string {
	if f == nil || !f.set {
		return ""
	}
	return f.text
}

func (f *endFlag) Set(s string) error {
	v, err := parseVec(s)
	if err != nil {
		return err
	}
	f.text, f.v, f.set = s, v, true
	return nil
}

// cell returns the end as a cell of a map; name is the flag's.
func (f *endFlag) cell(name string) (image.Point, error) {
	p, err := parsePoint(f.text)
	if err != nil {
		return image.Point{}, cli.Usagef("-%s %s: with -map, want x,y with integer x and y, a cell (points with fractions go with -mesh and no -map)", name, f.text)
	}
	return p, nil
}

// parseVec parses "x,y" as a point with finite coordinates.
func parseVec(s string) (mgl64.Vec2, error) {
	parts := strings.Split(s, ",")
	switch len(parts) {
	case 1:
		return mgl64.Vec2{}, fmt.Errorf("want x,y: no comma in %q", s)
	case 2:
	default:
		return mgl64.Vec2{}, fmt.Errorf("want x,y: %q has %d parts", s, len(parts))
	}
	var v mgl64.Vec2
	for i, part := range parts {
		part = strings.TrimSpace(part)
		name := [2]string{"x", "y"}[i]
		f, err := strconv.ParseFloat(part, 64)
		switch {
		case errors.Is(err, strconv.ErrRange):
			return mgl64.Vec2{}, fmt.Errorf("want x,y: %s %q is out of range", name, part)
		case err != nil:
			return mgl64.Vec2{}, fmt.Errorf("want x,y: %s %q is not a number", name, part)
		case math.IsNaN(f) || math.IsInf(f, 0):
			return mgl64.Vec2{}, fmt.Errorf("want x,y: %s %q is not finite", name, part)
		}
		v[i] = f
	}
	return v, nil
}

// shortVec formats p as "x,y" with the fewest digits that give it back.
func shortVec(p mgl64.Vec2) string {
	return strconv.FormatFloat(p[0], 'g', -1, 64) + "," + strconv.FormatFloat(p[1], 'g', -1, 64)
}

// meshAloneFlags are the flags route takes with -mesh and no -map.
var meshAloneFlags = []string{"mesh", "from", "to", "algo", "one-pass", "path", "png"}

// checkMeshAlone refuses the flags set on fs that need a map, and returns
// the -algo to run: navmesh unless set, or corridor.
func checkMeshAlone(fs *flag.FlagSet, rf *routerFlags) (navmesh.Query, error) {
	var bad []string
	fs.Visit(func(f *flag.Flag) {
		for _, ok := range meshAloneFlags {
			if f.Name == ok {
				return
			}
		}
		bad = append(bad, f.Name)
	})
	switch {
	case len(bad) > 0 && bad[0] == "radius":
		return navmesh.Query{}, cli.Usagef("-radius needs -map: a mesh file keeps the radius it was built for")
	case len(bad) > 0:
		return navmesh.Query{}, cli.Usagef("-%s needs -map: with -mesh alone, route takes only -%s", bad[0], strings.Join(meshAloneFlags, ", -"))
	}
	a, ok := lookupAlgo(rf.algo)
	switch {
	case !isSet(fs, "algo") && rf.onePass:
		return navmesh.Query{}, cli.Usagef("-one-pass needs -algo corridor")
	case !isSet(fs, "algo"):
		rf.algo = "navmesh"
		return navmesh.Query{}, nil
	case !ok:
		return navmesh.Query{}, cli.Usagef("unknown -algo %q (want %s)", rf.algo, algoNames())
	case !a.radius:
		return navmesh.Query{}, cli.Usagef("-algo %s needs -map: with -mesh alone, -algo is navmesh or corridor", a.name)
	}
	if err := rf.checkOnePass(a.name); err != nil {
		return navmesh.Query{}, err
	}
	return navmesh.Query{Corridor: a.name == "corridor", OnePass: rf.onePass}, nil
}

func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// routeMeshAlone is "pathfind route -mesh FILE" without -map: it reads the
// mesh with navmesh.Read, answers from point from to point to, checks the
// answer against the mesh's polygons and prints it as route does, after
// what the file says the mesh was built from.
func routeMeshAlone(stdout io.Writer, fs *flag.FlagSet, rf *routerFlags, from, to mgl64.Vec2, showPath bool, pngPath string) error {
	q, err := checkMeshAlone(fs, rf)
	if err != nil {
		return err
	}
	if pngPath != "" {
		if err := atomicfile.Check(pngPath); err != nil {
			return fmt.Errorf("-png %w", err)
		}
	}
	m, source, err := readMeshAlone(rf.mesh)
	if err != nil {
		return err
	}
	check := meshcheck.New(m)
	wrongly := func(err error) error {
		return fmt.Errorf("-algo %s answered %s to %s wrongly: %w", rf.algo, vecString(from), vecString(to), err)
	}
	for _, end := range []struct {
		what string
		p    mgl64.Vec2
	}{{"start", from}, {"goal", to}} {
		if _, ok := m.Locate(end.p); ok {
			continue
		}
		if ps := check.Holding(nil, end.p); len(ps) > 0 {
			return wrongly(fmt.Errorf("the mesh locates the %s off it, but polygon %d holds it", end.what, ps[0]))
		}
		_, near := m.Nearest(end.p)
		return fmt.Errorf("%s: %s %s is not on the mesh (the nearest point of the mesh is %s)", rf.mesh, end.what, vecString(end.p), vecString(near))
	}

	sr := navmesh.NewSearcher(m)
	t0 := time.Now()
	path, res, err := searchMesh(sr, from, to, q)
	elapsed := time.Since(t0)
	if err != nil {
		return fmt.Errorf("%s: %w", rf.mesh, err)
	}
	st := meshStats(res)
	if err := verifyMeshPoints(check, path, from, to, st); err != nil {
		return wrongly(err)
	}

	cost := "-"
	if len(path) > 0 {
		cost = fmt.Sprintf("%.5f", st.cost)
	}
	fmt.Fprintf(stdout, "mesh      %s: %d polygons, %d portals\n", rf.mesh, m.NumPolys(), m.NumPortals())
	fmt.Fprintf(stdout, "source    %s\n", source)
	fmt.Fprintf(stdout, "status    %s\n", st.status)
	if st.status == core.Unreachable {
		fmt.Fprintf(stdout, "why       start and goal are on parts of the mesh that no portal joins\n")
	}
	fmt.Fprintf(stdout, "cost      %s\n", cost)
	fmt.Fprintf(stdout, "steps     %d\n", max(len(path)-1, 0))
	fmt.Fprintf(stdout, "expanded  %d\n", st.expanded)
	fmt.Fprintf(stdout, "time      %s\n", formatMicros(elapsed))
	if showPath {
		line := appendVecLine([]byte("path      "), path)
		if _, err := stdout.Write(append(line, '\n')); err != nil {
			return err
		}
	}
	if pngPath != "" {
		title := fmt.Sprintf("%s · %s to %s · -algo %s", filepath.Base(rf.mesh), shortVec(from), shortVec(to), rf.algo)
		mp, err := drawMeshAlone(m, path, from, to, title)
		if err != nil {
			return err
		}
		if err := mp.c.WritePNG(pngPath); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "picture   %s (%s)\n", pngPath, mp.note())
	}
	return nil
}

// searchMesh answers the query of routeMeshAlone; tests replace it with
// wrong answers, which the check must catch.
var searchMesh = func(sr *navmesh.Searcher, from, to mgl64.Vec2, q navmesh.Query) ([]mgl64.Vec2, navmesh.Result, error) {
	return sr.AppendPath(nil, from, to, q)
}

// readMeshAlone reads the mesh file at path with navmesh.Read, for any map
// or none, and says what the file tells of what it was built from.
func readMeshAlone(path string) (*navmesh.Mesh, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	m, err := navmesh.Read(br)
	if err == nil {
		err = atEnd(br, "mesh")
	}
	if err != nil {
		return nil, "", fmt.Errorf("-mesh %s: %w", path, err)
	}
	return m, meshSource(m), nil
}

// meshSource describes what m was built from (navmesh.Mesh.Origin), and
// what it is bound to.
func meshSource(m *navmesh.Mesh) string {
	o, w, h := m.Origin()
	const bound = "; bound to that map and agent radius, which only -map can check"
	switch o {
	case navmesh.OriginRectangles:
		return fmt.Sprintf("a %d×%d map, as rectangles of its cells (navbuild -map -rectangles)%s", w, h, bound)
	case navmesh.OriginGrid:
		return fmt.Sprintf("a %d×%d map, as convex polygons (navbuild -map)%s", w, h, bound)
	case navmesh.OriginGridRadius:
		return fmt.Sprintf("a %d×%d map, offset for an agent radius the file does not give (navbuild -map -radius)%s", w, h, bound)
	case navmesh.OriginPolygons:
		return "polygons, not a map (navbuild -geojson); bound to no map"
	}
	return "not given by the file"
}
