package main

import (
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/internal/testmap"
	"github.com/cairn-nav/cairn/mapgen"
	"github.com/go-gl/mathgl/mgl64"
)

// checkTrace replays a crowd trace on the map at mapPath, a frame at a
// time. Each agent's move into frame F (from its position at F−1) happens
// around frame F's edits, so it must pass only free cells both before and
// after them, checked at points every 1/64 of a cell along it; each
// position of frame F must lie in a free cell after them. It returns the
// positions and edits it read.
func checkTrace(t *testing.T, mapPath, tracePath string, agents int) (positions, edits int) {
	t.Helper()
	g, err := grid.LoadMap(mapPath, grid.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(tracePath)
	if err != nil {
		t.Fatal(err)
	}
	// A unit of size k at p stands on the k×k cells from the cell of p.
	sizes := make([]int, agents)
	for i := range sizes {
		sizes[i] = 1
	}
	fits := func(a int, p mgl64.Vec2) bool {
		c := image.Pt(int(math.Floor(p.X())), int(math.Floor(p.Y())))
		for y := c.Y; y < c.Y+sizes[a]; y++ {
			for x := c.X; x < c.X+sizes[a]; x++ {
				if !g.Passable(image.Pt(x, y)) {
					return false
				}
			}
		}
		return true
	}
	type edit struct {
		r    image.Rectangle
		free bool
	}
	last := make([]mgl64.Vec2, agents)
	cur := make([]mgl64.Vec2, agents)
	frame := 0
	var frameEdits []edit
	got := 0 // positions read of the current frame
	moves := func(when string) {
		if frame == 0 {
			return
		}
		for a := range agents {
			q, p := last[a], cur[a]
			n := int(math.Ceil(p.Sub(q).Len()*64)) + 1
			for k := 0; k <= n; k++ {
				if m := q.Add(p.Sub(q).Mul(float64(k) / float64(n))); !fits(a, m) {
					t.Fatalf("frame %d: agent %d moved %v → %v through %v, a blocked cell %s the frame's edits", frame, a, q, p, m, when)
				}
			}
		}
	}
	// endFrame checks the frame whose edits and positions are read.
	endFrame := func() {
		if got != agents {
			t.Fatalf("frame %d: %d positions, want %d", frame, got, agents)
		}
		moves("before")
		for _, e := range frameEdits {
			g.SetCells(e.r, e.free)
			edits++
		}
		for a, p := range cur {
			if !fits(a, p) {
				t.Fatalf("frame %d: agent %d at %v, in a blocked cell", frame, a, p)
			}
		}
		moves("after")
		copy(last, cur)
		frameEdits, got = frameEdits[:0], 0
		frame++
	}
	for i, text := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		line := i + 1
		w := strings.Fields(text)
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(w[i], 64)
			if err != nil {
				t.Fatalf("trace line %d %q: %v", line, text, err)
			}
			return v
		}
		if len(w) == 3 && w[0] == "size" && frame == 0 && got == 0 && len(frameEdits) == 0 {
			a, k := int(num(1)), int(num(2))
			if a < 0 || a >= agents || k < 1 {
				t.Fatalf("trace line %d %q: bad size line", line, text)
			}
			sizes[a] = k
			continue
		}
		if len(w) < 2 {
			t.Fatalf("trace line %d %q: not an edit or a position", line, text)
		}
		fr := int(num(1))
		if fr == frame+1 && got == agents {
			endFrame()
		}
		if fr != frame {
			t.Fatalf("trace line %d %q: frame %d while reading frame %d", line, text, fr, frame)
		}
		switch {
		case len(w) == 7 && w[0] == "edit" && got == 0:
			r := image.Rect(int(num(2)), int(num(3)), int(num(4)), int(num(5)))
			if r.Empty() || !r.In(g.Bounds()) || (w[6] != "block" && w[6] != "free") {
				t.Fatalf("trace line %d %q: bad edit", line, text)
			}
			frameEdits = append(frameEdits, edit{r, w[6] == "free"})
		case len(w) == 5 && w[0] == "pos":
			a := int(num(2))
			if a != got {
				t.Fatalf("trace line %d: agent %d, want %d", line, a, got)
			}
			cur[a] = mgl64.Vec2{num(3), num(4)}
			got++
			positions++
		default:
			t.Fatalf("trace line %d %q: not an edit before the frame's positions, or a position", line, text)
		}
	}
	endFrame()
	return positions, edits
}

// TestCrowd runs a crowd with walls on the demo map and checks its trace:
// every position free, every move over free cells, the edits in place.
func TestCrowd(t *testing.T) {
	mapPath := filepath.Join("..", "..", "testdata", "demo.map")
	for _, tc := range []struct {
		agents, frames, edits   int
		speed, lookahead, reach string
		sizes                   string
		hpa, annotated          bool
	}{
		{30, 400, 6, "0.5", "4", "20", "1", false, false},
		{20, 300, 4, "1.7", "30", "0", "1", false, false},
		{10, 300, 3, "0.1", "0", "16", "1", false, false},
		{30, 400, 6, "0.5", "4", "20", "1,2", false, false},
		{20, 300, 4, "0.9", "8", "0", "2,1,3", false, false},
		{30, 400, 6, "0.5", "4", "0", "1", true, false},
		{20, 300, 4, "0.9", "8", "0", "1,2", true, false},
		{24, 300, 5, "0.7", "4", "0", "3,1,2", true, false},
		{20, 300, 4, "0.9", "8", "0", "1,2", true, true},
		{24, 300, 5, "0.7", "4", "0", "3,1,2", true, true},
	} {
		t.Run(fmt.Sprintf("agents=%d,speed=%s,lookahead=%s,sizes=%s,hpa=%v,annotated=%v", tc.agents, tc.speed, tc.lookahead, tc.sizes, tc.hpa, tc.annotated), func(t *testing.T) {
			trace := filepath.Join(t.TempDir(), "crowd.trace")
			args := []string{"crowd", "-map", mapPath, "-agents", strconv.Itoa(tc.agents),
				"-frames", strconv.Itoa(tc.frames), "-edits", strconv.Itoa(tc.edits), "-wall", "5", "-reach", tc.reach,
				"-speed", tc.speed, "-lookahead", tc.lookahead, "-sizes", tc.sizes, "-trace", trace, "-json"}
			if tc.hpa {
				args = append(args, "-hpa")
			}
			if tc.annotated {
				args = append(args, "-annotated") // one graph for every size
			}
			if tc.hpa && tc.sizes == "3,1,2" {
				args = append(args, "-refill") // the graphs refilled in the edit frames
			}
			out, errOut, code := pathfind(t, args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var sum crowdSummary
			if err := json.Unmarshal([]byte(out), &sum); err != nil {
				t.Fatalf("%v in %q", err, out)
			}
			for _, key := range []string{"frame_us_p50", "frame_us_p99", "frame_us_max", "requests", "arrivals", "replans", "allocs_per_frame_p99"} {
				if !strings.Contains(out, `"`+key+`"`) {
					t.Errorf("no %q in %s", key, out)
				}
			}
			positions, edits := checkTrace(t, mapPath, trace, tc.agents)
			if want := tc.agents * (tc.frames + 1); positions != want {
				t.Errorf("%d positions in the trace, want %d", positions, want)
			}
			if edits == 0 || edits > 2*tc.edits {
				t.Errorf("%d edits in the trace, want 1 to %d", edits, 2*tc.edits)
			}
			if sum.HPA != tc.hpa || sum.Annotated != tc.annotated {
				t.Errorf("hpa %v, annotated %v in the summary, want %v, %v", sum.HPA, sum.Annotated, tc.hpa, tc.annotated)
			}
			if sum.Arrivals == 0 || sum.Requests < tc.agents {
				t.Errorf("%d arrivals and %d requests: the crowd did not move", sum.Arrivals, sum.Requests)
			}
			// Frames without an edit allocate only where a path outgrows
			// its slices, which they soon stop doing: 1 to 3 of some 300
			// such frames here.
			if sum.AllocFrames > 6 {
				t.Errorf("%d frames without an edit allocated, want at most 6", sum.AllocFrames)
			}
		})
	}
}

// TestCrowdErrors checks the flags' errors.
func TestCrowdErrors(t *testing.T) {
	mapPath := filepath.Join("..", "..", "testdata", "demo.map")
	for _, args := range [][]string{
		{"crowd"},
		{"crowd", "-map", mapPath, "-agents", "0"},
		{"crowd", "-map", mapPath, "-speed", "-1"},
		{"crowd", "-map", mapPath, "-speed", "NaN"},
		{"crowd", "-map", mapPath, "-budget", "0"},
		{"crowd", "-map", mapPath, "-edits", "-2"},
		{"crowd", "-map", mapPath, "-sizes", "1,1"},
		{"crowd", "-map", mapPath, "-sizes", "0"},
		{"crowd", "-map", mapPath, "-sizes", "a"},
		{"crowd", "-map", mapPath, "-annotated"},
	} {
		if _, errOut, code := pathfind(t, args...); code != 2 || !strings.HasPrefix(errOut, "pathfind: ") {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a usage error", args, code, errOut)
		}
	}
}

// TestCrowdMovingAI runs the crowd, 200 agents for 600 frames with
// 10 walls, on Berlin_0_1024 (and, without -short, on it scaled ×4 to
// 4096²), and checks its trace. It skips when the maps are absent.
func TestCrowdMovingAI(t *testing.T) {
	dir := testmap.MovingAIDir()
	if dir == "" {
		t.Skip("the Moving AI maps are absent")
	}
	maps := []string{filepath.Join(dir, "Berlin_0_1024.map")}
	if !testing.Short() {
		g0, err := grid.LoadMap(maps[0], grid.Options{})
		if err != nil {
			t.Fatal(err)
		}
		g4, err := mapgen.Scale(g0, 4)
		if err != nil {
			t.Fatal(err)
		}
		big := filepath.Join(t.TempDir(), "berlin4.map")
		f, err := os.Create(big)
		if err != nil {
			t.Fatal(err)
		}
		if err := grid.WriteMap(f, g4); err != nil {
			t.Fatal(err)
		}
		f.Close()
		maps = append(maps, big)
	}
	for _, m := range maps {
		crowdMovingAI(t, m, nil)
	}
	if !testing.Short() {
		crowdMovingAI(t, maps[0], []string{"-hpa", "-refill"})    // the sizes' hpa.Classes, on Berlin
		crowdMovingAI(t, maps[0], []string{"-hpa", "-annotated"}) // one hpa.Annotated
	}
}

// crowdMovingAI runs 200 agents of sizes 1 and 2 for 600 frames and 10
// walls on map m, with the extra flags, and checks every position and
// move of the trace.
func crowdMovingAI(t *testing.T, m string, extra []string) {
	trace := filepath.Join(t.TempDir(), "crowd.trace")
	args := append([]string{"crowd", "-map", m, "-agents", "200", "-frames", "600", "-edits", "10",
		"-reach", "256", "-speed", "0.8", "-sizes", "1,2", "-trace", trace, "-json"}, extra...)
	out, errOut, code := pathfind(t, args...)
	if code != 0 {
		t.Fatalf("%s %v: exit %d: %s", m, extra, code, errOut)
	}
	positions, edits := checkTrace(t, m, trace, 200)
	var sum crowdSummary
	if err := json.Unmarshal([]byte(out), &sum); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s %v: %d positions and %d edits checked; %d arrivals, %d requests, %d mended, %d replans", filepath.Base(m), extra, positions, edits, sum.Arrivals, sum.Requests, sum.Mended, sum.Replans)
	if edits < 10 || sum.Arrivals == 0 {
		t.Errorf("%s: %d edits and %d arrivals: the crowd did too little", m, edits, sum.Arrivals)
	}
}
