package main

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"io"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/cmd/internal/picture"
	"github.com/cairn-nav/cairn/core"
	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
	"github.com/cairn-nav/cairn/internal/gridcheck"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/navmesh"
	"github.com/cairn-nav/cairn/smooth"
)

// newTestServer serves g under the name name, with its HPA* graph built with
// clusters of 16, on a loopback port.
func newTestServer(t *testing.T, name string, g *grid.Grid) *httptest.Server {
	t.Helper()
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 16})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newServer(name, g, hg, serveLimits{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.handler())
	t.Cleanup(ts.Close)
	return ts
}

// callAPI sends a request to the API and decodes the JSON answer into out
// (when not nil); it returns the status code and the raw body.
func callAPI(t *testing.T, ts *httptest.Server, method, path, contentType, body string, out any) (int, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil && res.StatusCode == http.StatusOK {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
	return res.StatusCode, raw
}

func postRoute(t *testing.T, ts *httptest.Server, from, to image.Point) routeResponse {
	t.Helper()
	var r routeResponse
	body := fmt.Sprintf(`{"from":[%d,%d],"to":[%d,%d]}`, from.X, from.Y, to.X, to.Y)
	if code, raw := callAPI(t, ts, "POST", "/api/route", "application/json", body, &r); code != http.StatusOK {
		t.Fatalf("route %v → %v: %d %s", from, to, code, raw)
	}
	return r
}

func postEdit(t *testing.T, ts *httptest.Server, r image.Rectangle, blocked bool) editResponse {
	t.Helper()
	var e editResponse
	body := fmt.Sprintf(`{"rect":[%d,%d,%d,%d],"blocked":%v}`, r.Min.X, r.Min.Y, r.Max.X, r.Max.Y, blocked)
	if code, raw := callAPI(t, ts, "POST", "/api/edit", "application/json", body, &e); code != http.StatusOK {
		t.Fatalf("edit %v: %d %s", r, code, raw)
	}
	return e
}

func resultOf(t *testing.T, r routeResponse, algo string) routeResult {
	t.Helper()
	for _, res := range r.Results {
		if res.Algo == algo {
			return res
		}
	}
	t.Fatalf("no %s result in %+v", algo, r)
	return routeResult{}
}

// pathPoints returns the cells of a result's path, which must be whole
// numbers.
func pathPoints(t *testing.T, xy []float64) []image.Point {
	t.Helper()
	if len(xy)%2 != 0 {
		t.Fatalf("path has an odd count of numbers: %v", xy)
	}
	ps := make([]image.Point, len(xy)/2)
	for i := range ps {
		x, y := xy[2*i], xy[2*i+1]
		if x != math.Trunc(x) || y != math.Trunc(y) {
			t.Fatalf("cell path holds %v,%v", x, y)
		}
		ps[i] = image.Pt(int(x), int(y))
	}
	return ps
}

// worldPoints returns the waypoints of a result's path.
func worldPoints(t *testing.T, xy []float64) []mgl64.Vec2 {
	t.Helper()
	if len(xy)%2 != 0 {
		t.Fatalf("path has an odd count of numbers: %v", xy)
	}
	ps := make([]mgl64.Vec2, len(xy)/2)
	for i := range ps {
		ps[i] = mgl64.Vec2{xy[2*i], xy[2*i+1]}
	}
	return ps
}

// checkResults checks every result of a route answer on g: cell paths are
// legal and cost their length, smoothed paths have line of sight and
// measure their length, grid searches are optimal, and the navmesh's
// waypoints run legally from centre to centre, measure their length and are
// no longer than the optimal grid path. It returns the A* length (or -1
// when unreachable).
func checkResults(t *testing.T, g *grid.Grid, r routeResponse) float64 {
	t.Helper()
	from, to := image.Pt(r.From[0], r.From[1]), image.Pt(r.To[0], r.To[1])
	if len(r.Results) != len(serveAlgos) {
		t.Fatalf("%d results, want %d", len(r.Results), len(serveAlgos))
	}
	opt := -1.0
	if g.Connected(from, to) {
		_, res, err := grid.NewSearcher(g).AppendPath(nil, from, to, grid.Query{Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		opt = res.Cost
	}
	for i, res := range r.Results {
		a := serveAlgos[i]
		if res.Algo != a.ID {
			t.Errorf("result %d is %s, want %s", i, res.Algo, a.ID)
		}
		if opt < 0 {
			if res.Status != core.Unreachable.String() || res.Length != nil || len(res.Path) != 0 {
				t.Errorf("%s: %+v, want unreachable with no length or path", a.ID, res)
			}
			continue
		}
		if res.Status != core.Found.String() || res.Length == nil {
			t.Errorf("%s: %+v, want found", a.ID, res)
			continue
		}
		if res.World != (a.ID == "navmesh") {
			t.Errorf("%s: world %v", a.ID, res.World)
			continue
		}
		if res.World {
			length, err := gridcheck.New(g, 0).Path(worldPoints(t, res.Path), picture.Centre(from), picture.Centre(to))
			if err != nil {
				t.Errorf("%s: %v", a.ID, err)
				continue
			}
			if math.Abs(length-*res.Length) > 1e-9*max(1, length) {
				t.Errorf("%s: reported length %v, path measures %v", a.ID, *res.Length, length)
			}
			if length > opt+1e-9*max(1, opt) {
				t.Errorf("%s: length %v, longer than the optimal grid path %v", a.ID, length, opt)
			}
			if res.Expanded < 0 || res.Micros < 0 {
				t.Errorf("%s: expanded %d, micros %v", a.ID, res.Expanded, res.Micros)
			}
			continue
		}
		path := pathPoints(t, res.Path)
		if path[0] != from || path[len(path)-1] != to {
			t.Errorf("%s: path %v does not run from %v to %v", a.ID, path, from, to)
		}
		var length float64
		if res.Turns {
			for j := 1; j < len(path); j++ {
				if !g.LineOfSight(path[j-1], path[j]) {
					t.Errorf("%s: leg %v–%v has no line of sight", a.ID, path[j-1], path[j])
				}
			}
			length = smooth.Length(path)
		} else {
			var err error
			if length, err = g.PathCost(path); err != nil {
				t.Errorf("%s: %v", a.ID, err)
				continue
			}
		}
		if math.Abs(length-*res.Length) > 1e-9*length {
			t.Errorf("%s: reported length %v, path measures %v", a.ID, *res.Length, length)
		}
		switch a.ID {
		case "astar", "dijkstra":
			if math.Abs(length-opt) > 1e-9*opt {
				t.Errorf("%s: length %v, optimum %v", a.ID, length, opt)
			}
		case "hpa":
			if length < opt-1e-9 {
				t.Errorf("hpa: length %v below the optimum %v", length, opt)
			}
		}
		if res.Expanded < 0 || (res.Expanded == 0) != (from == to) || res.Micros < 0 {
			t.Errorf("%s: expanded %d, micros %v", a.ID, res.Expanded, res.Micros)
		}
	}
	if opt < 0 {
		return -1
	}
	return *resultOf(t, r, "astar").Length
}

func TestServeMap(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	var m mapResponse
	if code, raw := callAPI(t, ts, "GET", "/api/map", "", "", &m); code != http.StatusOK {
		t.Fatalf("GET /api/map: %d %s", code, raw)
	}
	if m.Width != g.Width() || m.Height != g.Height() || m.Version != 0 || m.ClusterSize != 16 {
		t.Errorf("map %d×%d version %d clusters %d, want %d×%d version 0 clusters 16", m.Width, m.Height, m.Version, m.ClusterSize, g.Width(), g.Height())
	}
	bits, err := base64.StdEncoding.DecodeString(m.Blocked)
	if err != nil {
		t.Fatal(err)
	}
	if want := (g.Width()*g.Height() + 7) / 8; len(bits) != want {
		t.Fatalf("bitset of %d bytes, want %d", len(bits), want)
	}
	for y := range g.Height() {
		for x := range g.Width() {
			i := y*g.Width() + x
			if blocked := bits[i>>3]>>(i&7)&1 == 1; blocked == g.Passable(image.Pt(x, y)) {
				t.Fatalf("cell %d,%d: blocked bit %v, passable %v", x, y, blocked, g.Passable(image.Pt(x, y)))
			}
		}
	}
	ids := make([]string, len(m.Algos))
	for i, a := range m.Algos {
		ids[i] = a.ID
		if a.Colour == "" || a.Label == "" {
			t.Errorf("algo %s lacks a colour or label", a.ID)
		}
	}
	if got, want := strings.Join(ids, " "), "astar dijkstra hpa hpa-smooth navmesh"; got != want {
		t.Errorf("algos %s, want %s", got, want)
	}

	// The page and its files are served from the binary.
	for _, p := range []string{"/", "/app.js", "/style.css"} {
		code, raw := callAPI(t, ts, "GET", p, "", "", nil)
		if code != http.StatusOK || len(raw) == 0 {
			t.Errorf("GET %s: %d, %d bytes", p, code, len(raw))
		}
	}
}

func TestServeRoute(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	from, to := farPair(t, g)
	tests := []struct {
		name     string
		from, to image.Point
	}{
		{"far", from, to},
		{"back", to, from},
		{"same cell", from, from},
		{"near", from, nearFree(t, g, from)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := postRoute(t, ts, tc.from, tc.to)
			if r.Version != 0 {
				t.Errorf("version %d, want 0", r.Version)
			}
			checkResults(t, g, r)
		})
	}
}

// nearFree returns a free cell a few steps from p, connected to it.
func nearFree(t *testing.T, g *grid.Grid, p image.Point) image.Point {
	t.Helper()
	for d := 3; d < 10; d++ {
		for _, q := range []image.Point{p.Add(image.Pt(d, d)), p.Add(image.Pt(d, 0)), p.Add(image.Pt(0, d))} {
			if g.Passable(q) && g.Connected(p, q) {
				return q
			}
		}
	}
	t.Fatalf("no free cell near %v", p)
	return p
}

func TestServeEdit(t *testing.T) {
	g, err := grid.FromRows(strings.Split(strings.TrimSpace(`
.....@....
.....@....
.....@....
.....@....
.....@....
.....@....
.....@....
.....@....
.....@....
..........`), "\n"), grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := newTestServer(t, "wall.map", g)
	from, to := image.Pt(0, 0), image.Pt(9, 0)
	wall := image.Rect(5, 0, 6, 9)
	gap := image.Rect(5, 9, 6, 10)
	// Down to (4,9), through the gap by straight steps, up to (9,0).
	around := 4*math.Sqrt2 + 5 + 2 + 3*math.Sqrt2 + 6

	steps := []struct {
		name    string
		edit    image.Rectangle
		blocked bool
		changed int
		version uint64
		want    float64 // the A* length after the edit; -1: unreachable
	}{
		{"around the wall", image.Rectangle{}, false, 0, 0, around},
		{"open the wall", wall, false, 9, 1, 9},
		{"open it again", wall, false, 0, 1, 9},
		{"close it", wall, true, 9, 2, around},
		{"close the gap", gap, true, 1, 3, -1},
		{"clip to the map", image.Rect(-5, 9, 7, 20), false, 1, 4, around},
	}
	cur := g
	for _, st := range steps {
		if !st.edit.Empty() {
			e := postEdit(t, ts, st.edit, st.blocked)
			clipped := st.edit.Intersect(g.Bounds())
			if e.Version != st.version || e.Changed != st.changed || e.Blocked != st.blocked ||
				e.Rect != [4]int{clipped.Min.X, clipped.Min.Y, clipped.Max.X, clipped.Max.Y} {
				t.Fatalf("%s: edit answered %+v, want version %d, %d changed, rect %v", st.name, e, st.version, st.changed, clipped)
			}
			cur = cur.WithCells(clipped, !st.blocked)
		}
		r := postRoute(t, ts, from, to)
		if r.Version != st.version {
			t.Errorf("%s: route on version %d, want %d", st.name, r.Version, st.version)
		}
		got := checkResults(t, cur, r)
		if math.Abs(got-st.want) > 1e-9 {
			t.Errorf("%s: A* length %v, want %v", st.name, got, st.want)
		}
		// The server's HPA* graph, updated in place, answers as a fresh build.
		hg, err := hpa.Build(cur, hpa.Options{ClusterSize: 16})
		if err != nil {
			t.Fatal(err)
		}
		_, res, err := hpa.NewSearcher(hg).AppendPath(nil, from, to, hpa.Query{})
		if err != nil {
			t.Fatal(err)
		}
		if h := resultOf(t, r, "hpa"); h.Status != res.Status.String() || (h.Length != nil && *h.Length != res.Cost) {
			t.Errorf("%s: hpa %+v, fresh build %+v", st.name, h, res)
		}
		// So does its navmesh, built again after each edit.
		m, err := navmesh.FromGrid(cur, navmesh.Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, nres, err := navmesh.NewSearcher(m).AppendPath(nil, picture.Centre(from), picture.Centre(to), navmesh.Query{})
		if err != nil {
			t.Fatal(err)
		}
		if n := resultOf(t, r, "navmesh"); n.Status != nres.Status.String() || (n.Length != nil && *n.Length != nres.Length) {
			t.Errorf("%s: navmesh %+v, fresh build %+v", st.name, n, nres)
		}
	}

	var m mapResponse
	callAPI(t, ts, "GET", "/api/map", "", "", &m)
	if m.Version != 4 {
		t.Errorf("map version %d, want 4", m.Version)
	}
	var e editResponse
	if code, raw := callAPI(t, ts, "POST", "/api/reset", "application/json", "{}", &e); code != http.StatusOK || e.Version != 5 {
		t.Fatalf("reset: %d %s, want version 5", code, raw)
	}
	r := postRoute(t, ts, from, to)
	if got, want := checkResults(t, g, r), around; math.Abs(got-want) > 1e-9 {
		t.Errorf("after reset: A* length %v, want %v", got, want)
	}
}

func TestServeBadInput(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	free, _ := farPair(t, g)
	var wall image.Point
	for !g.In(wall) || g.Passable(wall) {
		wall.X++
	}
	ok := fmt.Sprintf("[%d,%d]", free.X, free.Y)
	jsonCT := "application/json"
	tests := []struct {
		name, method, path, ctype, body string
		code                            int
	}{
		{"malformed", "POST", "/api/route", jsonCT, `{"from":[1,2`, 400},
		{"not an object", "POST", "/api/route", jsonCT, `[1,2]`, 400},
		{"empty body", "POST", "/api/route", jsonCT, ``, 400},
		{"null", "POST", "/api/route", jsonCT, `null`, 400},
		{"unknown field", "POST", "/api/route", jsonCT, `{"from":` + ok + `,"to":` + ok + `,"algo":"x"}`, 400},
		{"two values", "POST", "/api/route", jsonCT, `{"from":` + ok + `,"to":` + ok + `}{}`, 400},
		{"missing to", "POST", "/api/route", jsonCT, `{"from":` + ok + `}`, 400},
		{"three numbers", "POST", "/api/route", jsonCT, `{"from":[1,2,3],"to":` + ok + `}`, 400},
		{"fraction", "POST", "/api/route", jsonCT, `{"from":[1.5,2],"to":` + ok + `}`, 400},
		{"string", "POST", "/api/route", jsonCT, `{"from":["1","2"],"to":` + ok + `}`, 400},
		{"overflow", "POST", "/api/route", jsonCT, `{"from":[1e30,2],"to":` + ok + `}`, 400},
		{"outside", "POST", "/api/route", jsonCT, `{"from":` + ok + `,"to":[64,0]}`, 400},
		{"negative", "POST", "/api/route", jsonCT, `{"from":[-1,5],"to":` + ok + `}`, 400},
		{"on a wall", "POST", "/api/route", jsonCT, fmt.Sprintf(`{"from":%s,"to":[%d,%d]}`, ok, wall.X, wall.Y), 400},
		{"huge body", "POST", "/api/route", jsonCT, `{"from":` + ok + `,"to":` + ok + strings.Repeat(" ", 1<<20) + `}`, 400},
		{"huge after value", "POST", "/api/route", jsonCT, `{"from":` + ok + `,"to":` + ok + `}` + strings.Repeat(" ", 1<<20), 400},
		{"no content type", "POST", "/api/route", "", `{"from":` + ok + `,"to":` + ok + `}`, 400},
		{"form post", "POST", "/api/route", "text/plain", `{"from":` + ok + `,"to":` + ok + `}`, 400},
		{"GET route", "GET", "/api/route", "", ``, 405},
		{"POST map", "POST", "/api/map", jsonCT, `{}`, 405},
		{"unknown API", "GET", "/api/nothing", "", ``, 404},
		{"edit without rect", "POST", "/api/edit", jsonCT, `{"blocked":true}`, 400},
		{"edit without blocked", "POST", "/api/edit", jsonCT, `{"rect":[1,1,2,2]}`, 400},
		{"edit blocked not bool", "POST", "/api/edit", jsonCT, `{"rect":[1,1,2,2],"blocked":1}`, 400},
		{"edit short rect", "POST", "/api/edit", jsonCT, `{"rect":[1,1,2],"blocked":true}`, 400},
		{"edit empty rect", "POST", "/api/edit", jsonCT, `{"rect":[3,3,3,5],"blocked":true}`, 400},
		{"edit inverted rect", "POST", "/api/edit", jsonCT, `{"rect":[5,5,3,3],"blocked":true}`, 400},
		{"edit outside", "POST", "/api/edit", jsonCT, `{"rect":[64,0,70,5],"blocked":true}`, 400},
		{"edit far outside", "POST", "/api/edit", jsonCT, `{"rect":[-9223372036854775808,0,-9223372036854775807,5],"blocked":true}`, 400},
		{"reset with fields", "POST", "/api/reset", jsonCT, `{"x":1}`, 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, raw := callAPI(t, ts, tc.method, tc.path, tc.ctype, tc.body, nil)
			if code != tc.code {
				t.Fatalf("status %d (%s), want %d", code, raw, tc.code)
			}
			var e errorResponse
			if err := json.Unmarshal(raw, &e); err != nil || e.Error == "" {
				t.Errorf("body %q is not a JSON error (%v)", raw, err)
			}
		})
	}
	// Nothing above changed the map.
	var m mapResponse
	callAPI(t, ts, "GET", "/api/map", "", "", &m)
	if m.Version != 0 {
		t.Errorf("map version %d after bad requests, want 0", m.Version)
	}
}

// TestServeConcurrent routes from several goroutines while walls come and
// go; each answer must be legal on the version of the map it names. Run it
// with -race.
func TestServeConcurrent(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	from, to := farPair(t, g)
	// Version 0 is the map as loaded; then the block is cleared (odd
	// versions) and filled (even ones) in turn.
	block := image.Rect(20, 20, 44, 28)
	cleared, filled := g.WithCells(block, true), g.WithCells(block, false)
	gridOf := func(v uint64) *grid.Grid {
		switch {
		case v == 0:
			return g
		case v%2 == 1:
			return cleared
		}
		return filled
	}
	if block.Inset(-1).Intersect(image.Rectangle{Min: from, Max: from.Add(image.Pt(1, 1))}) != (image.Rectangle{}) ||
		block.Inset(-1).Intersect(image.Rectangle{Min: to, Max: to.Add(image.Pt(1, 1))}) != (image.Rectangle{}) {
		t.Fatal("the block covers an end")
	}
	body := fmt.Sprintf(`{"from":[%d,%d],"to":[%d,%d]}`, from.X, from.Y, to.X, to.Y)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		got  []routeResponse
		stop = make(chan struct{})
	)
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				res, err := ts.Client().Post(ts.URL+"/api/route", "application/json", strings.NewReader(body))
				if err != nil {
					t.Error(err)
					return
				}
				var r routeResponse
				err = json.NewDecoder(res.Body).Decode(&r)
				res.Body.Close()
				if err != nil || res.StatusCode != http.StatusOK {
					t.Errorf("route: status %d, %v", res.StatusCode, err)
					return
				}
				mu.Lock()
				got = append(got, r)
				mu.Unlock()
			}
		})
	}
	for i := range 10 {
		postEdit(t, ts, block, i%2 == 1)
	}
	close(stop)
	wg.Wait()
	seen := map[uint64]bool{}
	for _, r := range got {
		seen[r.Version] = true
		checkResults(t, gridOf(r.Version), r)
	}
	t.Logf("%d routes on %d versions", len(got), len(seen))
}

// newLimitedServer serves g with the limits l, its HPA* graph built with
// clusters of 16, on a loopback port whose server has the command's
// timeouts, the write timeout scaled to l.Wait as writeTimeout is to
// defaultQueueWait: a request that waits its longest and then runs must
// still be answered before the write timeout cuts it off.
func newLimitedServer(t *testing.T, g *grid.Grid, l serveLimits) (*server, *httptest.Server) {
	t.Helper()
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 16})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := newServer("test.map", g, hg, l)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv.handler())
	ts.Config.ReadHeaderTimeout = readHeaderTimeout
	ts.Config.ReadTimeout = readTimeout
	ts.Config.WriteTimeout = srv.routes.wait * (writeTimeout / defaultQueueWait)
	ts.Start()
	t.Cleanup(ts.Close)
	t.Cleanup(srv.close) // before ts.Close, which waits for the queue
	return srv, ts
}

// routeBody is the JSON body of a route from from to to.
func routeBody(from, to image.Point) string {
	return fmt.Sprintf(`{"from":[%d,%d],"to":[%d,%d]}`, from.X, from.Y, to.X, to.Y)
}

// checkBusy checks that a response is a 503 with Retry-After and a JSON
// error.
func checkBusy(t *testing.T, code int, h http.Header, raw []byte) {
	t.Helper()
	var e errorResponse
	if code != http.StatusServiceUnavailable || h.Get("Retry-After") != retryAfter || json.Unmarshal(raw, &e) != nil || e.Error == "" {
		t.Errorf("got %d, Retry-After %q, body %s; want 503, Retry-After %s and a JSON error", code, h.Get("Retry-After"), raw, retryAfter)
	}
}

// waitFor polls cond until it holds, failing the test after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("gave up waiting until %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestServeConcurrentBurst sends many more routes at once than there are
// workers, on a map where each takes real time (Dijkstra alone expands most
// of its 148 000 cells), so that some wait and some are refused. Every
// client must get an answer, a route or a 503 with Retry-After, before the
// write timeout cuts it off; no more workers may be made or run at once
// than the pool holds, whatever the number of clients; and the heap,
// sampled during the burst, stays within a few workers of where it began,
// and comes back to it.
func TestServeConcurrentBurst(t *testing.T) {
	const workers, clients = 2, 64
	g := testmap.Maze(1, 48, 48, 7, 200) // 385², loops so paths cross it
	srv, ts := newLimitedServer(t, g, serveLimits{Workers: workers, Queue: 8, Wait: time.Second})
	from, to := image.Pt(1, 1), image.Pt(g.Width()-2, g.Height()-2)
	body := routeBody(from, to)

	// The heap a worker adds: one made and warmed here, on the same world.
	defer debug.SetGCPercent(debug.SetGCPercent(100)) // whatever GOGC says
	var ms runtime.MemStats
	heap := func() uint64 {
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before := heap()
	wk := newWorker(srv.cur.Load())
	for _, a := range serveAlgos {
		a.run(wk, from, to)
	}
	perWorker := heap() - before
	runtime.KeepAlive(wk)
	wk = nil
	base := heap()

	var (
		wg     sync.WaitGroup
		codes  = make([]int, clients)
		raws   = make([][]byte, clients)
		hdrs   = make([]http.Header, clients)
		start  = make(chan struct{})
		sample = make(chan struct{})
		peak   uint64
	)
	done := make(chan struct{})
	go func() {
		defer close(sample)
		var m runtime.MemStats
		<-start
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	tr := &http.Transport{MaxIdleConnsPerHost: clients}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr}
	for i := range clients {
		wg.Go(func() {
			<-start
			res, err := client.Post(ts.URL+"/api/route", "application/json", strings.NewReader(body))
			if err != nil {
				t.Errorf("client %d: %v", i, err) // a dropped connection
				return
			}
			defer res.Body.Close()
			codes[i], hdrs[i] = res.StatusCode, res.Header
			if raws[i], err = io.ReadAll(res.Body); err != nil {
				t.Errorf("client %d: reading the answer: %v", i, err)
			}
		})
	}
	close(start)
	wg.Wait()
	close(done)
	<-sample

	ok, busy := 0, 0
	for i, code := range codes {
		switch code {
		case http.StatusOK:
			var r routeResponse
			if err := json.Unmarshal(raws[i], &r); err != nil || r.Version != 0 || len(r.Results) != len(serveAlgos) {
				t.Errorf("client %d: %v in %.200s", i, err, raws[i])
			} else if ok == 0 {
				checkResults(t, g, r)
			}
			ok++
		case 0: // failed above
		default:
			checkBusy(t, code, hdrs[i], raws[i])
			busy++
		}
	}
	st := srv.routes.stats()
	t.Logf("%d clients, %d workers: %d routes, %d refused; stats %+v; heap %.1f MB at the start, peak %.1f MB, %.1f MB a worker",
		clients, workers, ok, busy, st, float64(base)/1e6, float64(peak)/1e6, float64(perWorker)/1e6)
	if ok < workers || ok+busy != clients {
		t.Errorf("%d routes and %d refusals from %d clients, want every client answered and at least %d routes", ok, busy, clients, workers)
	}
	if st.Peak > workers || st.Built > workers || st.Busy != 0 || st.Queued != 0 || st.Ran != int64(ok) || st.Refused != int64(busy) {
		t.Errorf("pool %+v, want at most %d workers made and busy at once, none busy or queued now, %d ran and %d refused", st, workers, ok, busy)
	}
	// Garbage counts until a collection, so allow the heap to double over
	// what is live: the world, the workers and the connections.
	if limit := 2*(base+(workers+1)*perWorker) + 16<<20; peak > limit {
		t.Errorf("heap peaked at %.1f MB, over %.1f MB: %.1f MB at the start and %.1f MB a worker", float64(peak)/1e6, float64(limit)/1e6, float64(base)/1e6, float64(perWorker)/1e6)
	}
	// Nothing of a route is kept after it, but its worker.
	if after := heap(); after > base+workers*perWorker+8<<20 {
		t.Errorf("heap %.1f MB after the burst, %.1f MB before it (%.1f MB a worker)", float64(after)/1e6, float64(base)/1e6, float64(perWorker)/1e6)
	}
}

// post sends a JSON body to the API with ctx and returns the status, the
// headers and the body; err is set when no answer came within 20 s.
func post(ctx context.Context, ts *httptest.Server, path, body string) (int, http.Header, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", ts.URL+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := ts.Client().Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, raw, err
}

// TestServeConcurrentQueue fills the pool by holding its only worker, and
// checks the two refusals: a route that waits past the deadline, and one
// that finds the queue full, both get 503 at once with Retry-After; a
// queued route gets its answer when the worker comes free. An edit that
// cannot have its turn in time is refused alike.
func TestServeConcurrentQueue(t *testing.T) {
	g := loadDemo(t)
	from, to := farPair(t, g)
	body := routeBody(from, to)

	t.Run("deadline", func(t *testing.T) {
		srv, ts := newLimitedServer(t, g, serveLimits{Workers: 1, Queue: 4, Wait: 50 * time.Millisecond})
		sl, err := srv.routes.acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		code, h, raw, err := post(t.Context(), ts, "/api/route", body)
		if err != nil {
			t.Fatal(err)
		}
		checkBusy(t, code, h, raw)
		if !strings.Contains(string(raw), "within 50ms") {
			t.Errorf("body %s, want the wait named", raw)
		}
		srv.routes.release(sl)
		if code, _, raw, err := post(t.Context(), ts, "/api/route", body); err != nil || code != http.StatusOK {
			t.Errorf("after the worker came free: %d %s %v, want 200", code, raw, err)
		}
		if st := srv.routes.stats(); st.Ran != 2 || st.Refused != 1 || st.Busy != 0 || st.Queued != 0 {
			t.Errorf("pool %+v, want 2 ran (the test's and the last route) and 1 refused", st)
		}

		// Edits take turns for as long.
		if err := srv.lockEdits(t.Context()); err != nil {
			t.Fatal(err)
		}
		code, h, raw, err = post(t.Context(), ts, "/api/edit", `{"rect":[0,0,1,1],"blocked":true}`)
		srv.unlockEdits()
		if err != nil {
			t.Fatal(err)
		}
		checkBusy(t, code, h, raw)
	})

	t.Run("queue full", func(t *testing.T) {
		srv, ts := newLimitedServer(t, g, serveLimits{Workers: 1, Queue: 1, Wait: time.Minute})
		sl, err := srv.routes.acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		type answer struct {
			code int
			raw  []byte
			err  error
		}
		queued := make(chan answer, 1)
		go func() {
			code, _, raw, err := post(t.Context(), ts, "/api/route", body)
			queued <- answer{code, raw, err}
		}()
		waitFor(t, "a route is queued", func() bool { return srv.routes.stats().Queued == 1 })
		code, h, raw, err := post(t.Context(), ts, "/api/route", body)
		if err != nil {
			t.Fatal(err)
		}
		checkBusy(t, code, h, raw)
		srv.routes.release(sl)
		a := <-queued
		if a.err != nil || a.code != http.StatusOK {
			t.Fatalf("queued route: %d %s %v, want 200", a.code, a.raw, a.err)
		}
		var r routeResponse
		if err := json.Unmarshal(a.raw, &r); err != nil {
			t.Fatal(err)
		}
		checkResults(t, g, r)
	})

	t.Run("shutdown", func(t *testing.T) {
		srv, ts := newLimitedServer(t, g, serveLimits{Workers: 1, Queue: 1, Wait: time.Minute})
		sl, err := srv.routes.acquire(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer srv.routes.release(sl)
		type answer struct {
			code int
			h    http.Header
			raw  []byte
			err  error
		}
		queued := make(chan answer, 1)
		go func() {
			code, h, raw, err := post(t.Context(), ts, "/api/route", body)
			queued <- answer{code, h, raw, err}
		}()
		waitFor(t, "a route is queued", func() bool { return srv.routes.stats().Queued == 1 })
		srv.close()
		a := <-queued
		if a.err != nil {
			t.Fatal(a.err)
		}
		checkBusy(t, a.code, a.h, a.raw)
		code, h, raw, err := post(t.Context(), ts, "/api/route", body)
		if err != nil {
			t.Fatal(err)
		}
		checkBusy(t, code, h, raw)
	})
}

// TestServeConcurrentCancel checks that a route whose client goes away while
// it waits leaves the queue at once, and never takes the worker: the next
// route has it as soon as it is free.
func TestServeConcurrentCancel(t *testing.T) {
	g := loadDemo(t)
	from, to := farPair(t, g)
	body := routeBody(from, to)
	srv, ts := newLimitedServer(t, g, serveLimits{Workers: 1, Queue: 1, Wait: time.Minute})
	sl, err := srv.routes.acquire(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	gone := make(chan error, 1)
	go func() {
		_, _, _, err := post(ctx, ts, "/api/route", body)
		gone <- err
	}()
	waitFor(t, "a route is queued", func() bool { return srv.routes.stats().Queued == 1 })
	cancel()
	if err := <-gone; err == nil {
		t.Error("the cancelled client got an answer")
	}
	// The queue holds one route: it has room again only once the cancelled
	// one has left.
	waitFor(t, "the cancelled route leaves the queue", func() bool {
		st := srv.routes.stats()
		return st.Queued == 0 && st.Refused == 1
	})
	next := make(chan int, 1)
	go func() {
		code, _, raw, err := post(t.Context(), ts, "/api/route", body)
		if err != nil {
			t.Errorf("next route: %v", err)
		}
		if code != http.StatusOK {
			t.Errorf("next route: %d %s", code, raw)
		}
		next <- code
	}()
	waitFor(t, "the next route is queued", func() bool { return srv.routes.stats().Queued == 1 })
	srv.routes.release(sl)
	<-next
	if st := srv.routes.stats(); st.Ran != 2 || st.Refused != 1 || st.Built != 1 || st.Busy != 0 || st.Queued != 0 {
		t.Errorf("pool %+v, want 2 ran (the test's and the next route), 1 refused, 1 worker made", st)
	}
}

func TestServeUntil(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	g := loadDemo(t)
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	srv, err := newServer("demo.map", g, hg, serveLimits{})
	if err != nil {
		t.Fatal(err)
	}
	go func() { done <- serveUntil(ctx, ln, srv.handler()) }()
	res, err := http.Get("http://" + ln.Addr().String() + "/api/map")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("GET /api/map: %d", res.StatusCode)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serveUntil: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serveUntil did not return after the context ended")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/"); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func TestServeErrors(t *testing.T) {
	dir := t.TempDir()
	mapPath := writeFile(t, dir, "w.map", wall10)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no map", []string{"serve"}, 2, "-map is required"},
		{"missing map", []string{"serve", "-map", dir + "/none.map"}, 1, "none.map"},
		{"bad graph", []string{"serve", "-map", mapPath, "-graph", mapPath}, 1, "w.map"},
		{"address in use", []string{"serve", "-map", mapPath, "-addr", busy.Addr().String()}, 1, "address already in use"},
		{"bad address", []string{"serve", "-map", mapPath, "-addr", "nowhere"}, 1, "nowhere"},
		{"argument", []string{"serve", "-map", mapPath, "extra"}, 2, "unexpected argument"},
		{"no workers", []string{"serve", "-map", mapPath, "-workers", "0"}, 2, "-workers 0, want 1 or more"},
		{"negative queue", []string{"serve", "-map", mapPath, "-queue", "-1"}, 2, "-queue -1, want 0 or more"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, code := pathfind(t, tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.want) || !strings.HasPrefix(errOut, "pathfind: ") {
				t.Errorf("exit %d, stderr %q, stdout %q; want exit %d and %q", code, errOut, out, tc.code, tc.want)
			}
		})
	}
}

// BenchmarkServeEdit measures an edit of serve on Berlin_0_1024, when the
// benchmarks are present: walls added and removed in turn over a 4×4 block,
// each rebuilding the touched HPA* clusters and the whole navmesh, whose
// share it reports as mesh-ms/op.
func BenchmarkServeEdit(b *testing.B) {
	m := filepath.Join(testmap.MovingAIDir(), "Berlin_0_1024.map")
	g, err := grid.LoadMap(m, grid.Options{})
	if err != nil {
		b.Skipf("benchmarks absent: %v", err)
	}
	hg, err := hpa.Build(g, hpa.Options{})
	if err != nil {
		b.Fatal(err)
	}
	srv, err := newServer("Berlin_0_1024.map", g, hg, serveLimits{})
	if err != nil {
		b.Fatal(err)
	}
	h := srv.handler()
	var meshMicros float64
	blocked := true
	for b.Loop() {
		body := fmt.Sprintf(`{"rect":[510,510,514,514],"blocked":%v}`, blocked)
		blocked = !blocked
		req := httptest.NewRequest("POST", "/api/edit", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		var e editResponse
		if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || rec.Code != http.StatusOK || e.Changed == 0 {
			b.Fatalf("edit: %d %s", rec.Code, rec.Body)
		}
		meshMicros += e.MeshMicros
	}
	b.ReportMetric(meshMicros/1e3/float64(b.N), "mesh-ms/op")
}
