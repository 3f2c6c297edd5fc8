package main

import (
	"encoding/json"
	"fmt"
	"image"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/go-gl/mathgl/mgl64"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/grid"
)

// crowdCall posts body to the crowd API at path and fails the test unless
// it answers 200.
func crowdCall(t *testing.T, ts *httptest.Server, path, body string) crowdResponse {
	t.Helper()
	var r crowdResponse
	if code, raw := callAPI(t, ts, "POST", path, "application/json", body, &r); code != http.StatusOK {
		t.Fatalf("%s %s: %d %s", path, body, code, raw)
	}
	return r
}

// agentPoints returns the points of x0, y0, x1, y1, ….
func agentPoints(t *testing.T, xy []float64, n int) []mgl64.Vec2 {
	t.Helper()
	if len(xy) != 2*n {
		t.Fatalf("%d coordinates for %d agents", len(xy), n)
	}
	ps := make([]mgl64.Vec2, n)
	for i := range ps {
		ps[i] = mgl64.Vec2{xy[2*i], xy[2*i+1]}
	}
	return ps
}

// checkCrowd checks an answer of the crowd API on g, the map of the
// version it names: n agents, each standing in a free cell, and each
// target a free cell in a straight free line from the agent.
func checkCrowd(t *testing.T, g *grid.Grid, r crowdResponse, n int) []mgl64.Vec2 {
	t.Helper()
	if r.Agents != n {
		t.Fatalf("%d agents, want %d", r.Agents, n)
	}
	pos := agentPoints(t, r.Pos, n)
	targets := agentPoints(t, r.Target, n)
	for i, p := range pos {
		if c := agent.CellOf(p); !g.Passable(c) {
			t.Fatalf("frame %d, version %d: agent %d at %v stands in blocked cell %v", r.Frame, r.Version, i, p, c)
		}
		if !g.SegmentFree(p, targets[i]) {
			t.Errorf("frame %d: agent %d at %v steers toward %v through a wall", r.Frame, i, p, targets[i])
		}
	}
	return pos
}

// TestServeCrowd starts a crowd, steps it, walls in some of its agents and
// cuts its paths, resets the map, and checks after each that the agents
// stand in free cells of the map the server has then, and that they move
// no faster than their speed.
func TestServeCrowd(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	const n, speed, frames = 60, 0.5, 20
	r := crowdCall(t, ts, "/api/crowd/start", fmt.Sprintf(`{"agents":%d,"speed":%v,"seed":7}`, n, speed))
	if r.Frame != 0 || r.Version != 0 || r.Requests != n {
		t.Errorf("start: frame %d, version %d, %d requests; want 0, 0, %d", r.Frame, r.Version, r.Requests, n)
	}
	prev := checkCrowd(t, g, r, n)
	moved := 0
	for k := 1; k <= 3; k++ {
		r = crowdCall(t, ts, "/api/crowd/step", fmt.Sprintf(`{"frames":%d}`, frames))
		if r.Frame != k*frames {
			t.Fatalf("frame %d after %d steps of %d", r.Frame, k, frames)
		}
		pos := checkCrowd(t, g, r, n)
		for i := range pos {
			d := pos[i].Sub(prev[i]).Len()
			if d > speed*frames+0.01 {
				t.Errorf("agent %d moved %v in %d frames, faster than %v a frame", i, d, frames, speed)
			}
			if d > 0 {
				moved++
			}
		}
		prev = pos
	}
	if moved < n {
		t.Errorf("%d moves of %d agents in 3 steps: the crowd hardly moves", moved, n)
	}
	if r.Arrivals == 0 {
		t.Errorf("no arrivals after %d frames", r.Frame)
	}

	// Wall in the cells around agent 0, then cut the map with a long wall
	// across its middle row, where paths pass.
	c := agent.CellOf(prev[0])
	box := image.Rectangle{Min: c.Sub(image.Pt(1, 1)), Max: c.Add(image.Pt(2, 2))}.Intersect(g.Bounds())
	cur := g.WithCells(box, false)
	e := postEdit(t, ts, box, true)
	r = crowdCall(t, ts, "/api/crowd/step", `{"frames":0}`)
	if r.Version != e.Version || r.Relocated == 0 {
		t.Errorf("after walling agent 0 in: version %d (edit's %d), %d relocated; want at least 1", r.Version, e.Version, r.Relocated)
	}
	checkCrowd(t, cur, r, n)
	cut := image.Rect(2, g.Height()/2, g.Width()-2, g.Height()/2+1)
	cur = cur.WithCells(cut, false)
	e = postEdit(t, ts, cut, true)
	r = crowdCall(t, ts, "/api/crowd/step", `{"frames":1}`)
	if r.Version != e.Version {
		t.Errorf("crowd on version %d after the cut, want %d", r.Version, e.Version)
	}
	t.Logf("after the cut: %+v", r.crowdCounts)
	if r.Mended+r.Replans == 0 {
		t.Errorf("a wall across the map's middle row broke no path: %+v", r.crowdCounts)
	}
	prev = checkCrowd(t, cur, r, n)
	for range 3 {
		r = crowdCall(t, ts, "/api/crowd/step", fmt.Sprintf(`{"frames":%d}`, frames))
		for i, p := range checkCrowd(t, cur, r, n) {
			if a, b := agent.CellOf(prev[i]).Y, agent.CellOf(p).Y; a < cut.Min.Y && b > cut.Min.Y || a > cut.Min.Y && b < cut.Min.Y {
				t.Errorf("agent %d crossed the wall from %v to %v", i, prev[i], p)
			}
		}
		prev = agentPoints(t, r.Pos, n)
	}

	// A reset brings the map back as loaded; the crowd walks on it.
	if code, raw := callAPI(t, ts, "POST", "/api/reset", "application/json", `{}`, nil); code != http.StatusOK {
		t.Fatalf("reset: %d %s", code, raw)
	}
	r = crowdCall(t, ts, "/api/crowd/step", fmt.Sprintf(`{"frames":%d}`, frames))
	if r.Version != e.Version+1 {
		t.Errorf("crowd on version %d after the reset, want %d", r.Version, e.Version+1)
	}
	checkCrowd(t, g, r, n)

	var stop struct{ Stopped bool }
	if code, raw := callAPI(t, ts, "POST", "/api/crowd/stop", "application/json", `{}`, &stop); code != http.StatusOK || !stop.Stopped {
		t.Errorf("stop: %d %s", code, raw)
	}
	if code, raw := callAPI(t, ts, "POST", "/api/crowd/step", "application/json", `{"frames":1}`, nil); code != http.StatusConflict {
		t.Errorf("step after stop: %d %s, want 409", code, raw)
	}
}

// TestServeCrowdBadInput checks that bad parameters get 400 and a message
// that says what is wrong, and a step with no crowd 409.
func TestServeCrowdBadInput(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	if code, raw := callAPI(t, ts, "POST", "/api/crowd/step", "application/json", `{"frames":1}`, nil); code != http.StatusConflict || !strings.Contains(string(raw), "no crowd runs") {
		t.Errorf("step before start: %d %s, want 409", code, raw)
	}
	jsonCT := "application/json"
	tests := []struct {
		name, method, path, ctype, body, want string
		code                                  int
	}{
		{"no agents", "POST", "/api/crowd/start", jsonCT, `{}`, "agents 0, want 1 to 2000", 400},
		{"too many agents", "POST", "/api/crowd/start", jsonCT, `{"agents":2001}`, "agents 2001", 400},
		{"negative agents", "POST", "/api/crowd/start", jsonCT, `{"agents":-3}`, "agents -3", 400},
		{"agents not a number", "POST", "/api/crowd/start", jsonCT, `{"agents":"10"}`, "bad request body", 400},
		{"zero speed", "POST", "/api/crowd/start", jsonCT, `{"agents":10,"speed":0}`, "speed 0, want", 400},
		{"fast", "POST", "/api/crowd/start", jsonCT, `{"agents":10,"speed":5}`, "speed 5", 400},
		{"unknown field", "POST", "/api/crowd/start", jsonCT, `{"agents":10,"radius":1}`, "unknown field", 400},
		{"form start", "POST", "/api/crowd/start", "text/plain", `{"agents":10}`, "Content-Type", 400},
		{"GET start", "GET", "/api/crowd/start?agents=10", "", ``, "wants POST", 405},
		{"negative frames", "POST", "/api/crowd/step", jsonCT, `{"frames":-1}`, "frames -1, want 0 to 100", 400},
		{"many frames", "POST", "/api/crowd/step", jsonCT, `{"frames":101}`, "frames 101", 400},
		{"fraction of a frame", "POST", "/api/crowd/step", jsonCT, `{"frames":1.5}`, "bad request body", 400},
		{"stop with fields", "POST", "/api/crowd/stop", jsonCT, `{"now":true}`, "unknown field", 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, raw := callAPI(t, ts, tc.method, tc.path, tc.ctype, tc.body, nil)
			var e errorResponse
			if err := json.Unmarshal(raw, &e); err != nil {
				t.Fatalf("body %q is not a JSON error (%v)", raw, err)
			}
			if code != tc.code || !strings.Contains(e.Error, tc.want) {
				t.Errorf("%d %q, want %d with %q", code, e.Error, tc.code, tc.want)
			}
		})
	}
	// A crowd on a map without room for one is refused.
	tiny, err := grid.FromRows([]string{"#.#"}, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts = newTestServer(t, "tiny", tiny)
	if code, raw := callAPI(t, ts, "POST", "/api/crowd/start", jsonCT, `{"agents":1}`, nil); code != http.StatusConflict || !strings.Contains(string(raw), "too few") {
		t.Errorf("crowd on a map of one free cell: %d %s, want 409", code, raw)
	}
}

// TestServeCrowdConcurrent steps the crowd from two goroutines while a
// third puts a wall up and takes it down again; every answer must have its
// agents in free cells of the version it names. Run it with -race.
func TestServeCrowdConcurrent(t *testing.T) {
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	const n = 80
	crowdCall(t, ts, "/api/crowd/start", fmt.Sprintf(`{"agents":%d}`, n))
	from, _ := farPair(t, g)
	box := image.Rectangle{Min: from, Max: from.Add(image.Pt(12, 6))}

	var (
		mu       sync.Mutex
		versions = map[uint64]*grid.Grid{0: g}
		answers  []crowdResponse
		wg       sync.WaitGroup
	)
	// The edits are checked below, after the goroutines, as t.Fatal must
	// not be called from them.
	errc := make(chan error, 3)
	wg.Go(func() {
		cur := g
		for k := range 8 {
			blocked := k%2 == 0
			body := fmt.Sprintf(`{"rect":[%d,%d,%d,%d],"blocked":%v}`, box.Min.X, box.Min.Y, box.Max.X, box.Max.Y, blocked)
			req, _ := http.NewRequest("POST", ts.URL+"/api/edit", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			res, err := ts.Client().Do(req)
			if err != nil {
				errc <- err
				return
			}
			var e editResponse
			err = json.NewDecoder(res.Body).Decode(&e)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusOK {
				errc <- fmt.Errorf("edit %d: %d %v", k, res.StatusCode, err)
				return
			}
			cur = cur.WithCells(box, !blocked)
			mu.Lock()
			versions[e.Version] = cur
			mu.Unlock()
		}
	})
	for range 2 {
		wg.Go(func() {
			for range 15 {
				body := strings.NewReader(`{"frames":3}`)
				res, err := ts.Client().Post(ts.URL+"/api/crowd/step", "application/json", body)
				if err != nil {
					errc <- err
					return
				}
				var r crowdResponse
				err = json.NewDecoder(res.Body).Decode(&r)
				res.Body.Close()
				if err != nil || res.StatusCode != http.StatusOK {
					errc <- fmt.Errorf("step: %d %v", res.StatusCode, err)
					return
				}
				mu.Lock()
				answers = append(answers, r)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	last := 0
	for _, r := range answers {
		vg, ok := versions[r.Version]
		if !ok {
			t.Fatalf("step answered for version %d, which no edit made", r.Version)
		}
		checkCrowd(t, vg, r, n)
		last = max(last, r.Frame)
	}
	if last != 2*15*3 {
		t.Errorf("last frame %d, want %d", last, 2*15*3)
	}
}
