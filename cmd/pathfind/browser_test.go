package main

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/cairn-nav/cairn/agent"
	"github.com/cairn-nav/cairn/core"
)

// chromium is where Debian's chromium package puts the browser.
const chromium = "/usr/bin/chromium"

// browserPath returns the browser the browser tests drive. Without one they
// skip, unless CAIRN_BROWSER_TEST=1 (as in CI), which makes that a failure.
func browserPath(t *testing.T) string {
	t.Helper()
	if _, err := os.Stat(chromium); err == nil {
		return chromium
	}
	if os.Getenv("CAIRN_BROWSER_TEST") == "1" {
		t.Fatalf("CAIRN_BROWSER_TEST=1 but %s is missing (apt-get install chromium)", chromium)
	}
	t.Skipf("%s is missing (apt-get install chromium); CAIRN_BROWSER_TEST=1 makes this a failure", chromium)
	return ""
}

// newBrowser starts a headless Chromium with a new empty profile and no
// background traffic, and returns a tab's context, ended with the test or
// after 30 seconds.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	exe := browserPath(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	actx, acancel := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 800),
	)
	t.Cleanup(acancel)
	bctx, bcancel := chromedp.NewContext(actx)
	t.Cleanup(bcancel)
	// Start the browser and its tab now, before anything subscribes to them.
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	return bctx
}

// watchConsole collects the errors and exceptions the page logs; the
// function it returns reports them as test errors.
func watchConsole(t *testing.T, ctx context.Context) func() {
	t.Helper()
	var (
		mu   sync.Mutex
		errs []string
	)
	go func() {
		for m, err := range chromedp.Console(ctx) {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.Type == chromedp.ConsoleException {
				mu.Lock()
				errs = append(errs, fmt.Sprintf("%s: %s", m.Type, m.Text))
				mu.Unlock()
			}
		}
	}()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			t.Errorf("page console %s", e)
		}
	}
}

// pageView is the map's placement on the page, as the canvas exposes it.
type pageView struct {
	Left, Top, Scale, OX, OY float64
}

// client returns the viewport coordinates of the centre of cell p.
func (v pageView) client(p image.Point) (x, y float64) {
	return v.Left + v.OX + (float64(p.X)+0.5)*v.Scale, v.Top + v.OY + (float64(p.Y)+0.5)*v.Scale
}

const viewJS = `(() => {
	const c = document.getElementById("map");
	const r = c.getBoundingClientRect();
	return {Left: r.left, Top: r.top, Scale: +c.dataset.scale, OX: +c.dataset.originX, OY: +c.dataset.originY};
})()`

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mouseLeft sends one mouse event with the left button.
func mouseLeft(typ input.DispatchMouseEventType, x, y float64) chromedp.Action[chromedp.Void] {
	p := input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft}
	switch typ {
	case chromedp.MousePressed:
		p.Buttons, p.ClickCount = 1, 1
	case chromedp.MouseMoved:
		p.Buttons = 1
	case chromedp.MouseReleased:
		p.ClickCount = 1
	}
	return chromedp.MouseEvent(typ, x, y, func(q *input.DispatchMouseEventParams) { *q = p })
}

// TestBrowserServe loads the page of "pathfind serve" in headless Chromium,
// clicks a start and a goal on the canvas, and checks that the figures it
// shows are the API's; then it drags a wall across the path and checks the
// searches ran again on the edited map. With CAIRN_SCREENSHOT=FILE it saves
// a PNG of the page after the first route.
func TestBrowserServe(t *testing.T) {
	ctx := newBrowser(t)
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	from, to := farPair(t, g)
	want := postRoute(t, ts, from, to)
	wantLen := *resultOf(t, want, "astar").Length

	defer watchConsole(t, ctx)()

	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL),
		chromedp.Poll[chromedp.Void](`document.getElementById("map").dataset.ready === "1"`),
	); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	v, err := chromedp.Run(ctx, chromedp.Evaluate[pageView](viewJS))
	if err != nil {
		t.Fatal(err)
	}
	if !(v.Scale > 1) {
		t.Fatalf("view %+v: want more than a pixel per cell for the 64×48 demo map", v)
	}
	fx, fy := v.client(from)
	tx, ty := v.client(to)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(fx, fy), chromedp.MouseClickXY(tx, ty)); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Poll[routeResponse](`window.lastRoute`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("waiting for a route after clicking %v and %v at (%.0f,%.0f) and (%.0f,%.0f): %v", from, to, fx, fy, tx, ty, err)
	}
	if got.From != want.From || got.To != want.To {
		t.Fatalf("page routed %v → %v, want %v → %v", got.From, got.To, want.From, want.To)
	}
	if a := resultOf(t, got, "astar"); a.Length == nil || math.Abs(*a.Length-wantLen) > 1e-9 {
		t.Errorf("page's A* length %v, API's %v", a.Length, wantLen)
	}
	cell, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#row-astar [data-field="length"]').textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if w := fmt.Sprintf("%.3f", wantLen); cell != w {
		t.Errorf("figures table shows A* length %q, want %q", cell, w)
	}
	// The navmesh row shows the API's any-angle length, no longer than A*'s.
	navLen := *resultOf(t, want, "navmesh").Length
	if navLen > wantLen+1e-9 {
		t.Errorf("API's navmesh length %v, longer than A*'s %v", navLen, wantLen)
	}
	if n := resultOf(t, got, "navmesh"); n.Status != core.Found.String() || !n.World || n.Length == nil || math.Abs(*n.Length-navLen) > 1e-9 {
		t.Errorf("page's navmesh result %+v, API's length %v", n, navLen)
	}
	row, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll('#row-navmesh td[data-field]')].map((td) => td.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	// label, status, length, expanded, µs, points
	if len(row) != 6 || row[1] != core.Found.String() || row[2] != fmt.Sprintf("%.3f", navLen) {
		t.Errorf("navmesh row %q, want found with length %.3f", row, navLen)
	} else if l, err := strconv.ParseFloat(row[2], 64); err != nil || l > wantLen+0.0005 {
		t.Errorf("navmesh row length %q, want at most A*'s %.3f", row[2], wantLen)
	}
	// The page draws the waypoints where they are, not at cell centres: the
	// canvas shows the navmesh colour (drawn last, opaque) at its turns and
	// at the middle of its legs.
	var probes [][2]float64
	pts := worldPoints(t, resultOf(t, got, "navmesh").Path)
	for i := 1; i < len(pts); i++ {
		if i < len(pts)-1 {
			probes = append(probes, [2]float64(pts[i]))
		}
		probes = append(probes, [2]float64(pts[i-1].Add(pts[i]).Mul(0.5)))
	}
	probeJS := fmt.Sprintf(`((probes) => {
		const v = window.cairn.view;
		const ctx = document.getElementById("map").getContext("2d");
		return probes.every(([x, y]) => {
			const d = ctx.getImageData(Math.floor((v.ox + x * v.scale) * v.dpr), Math.floor((v.oy + y * v.scale) * v.dpr), 1, 1).data;
			return d[0] === 0x94 && d[1] === 0x67 && d[2] === 0xbd;
		});
	})(%s)`, mustJSON(t, probes))
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](probeJS, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Errorf("the canvas lacks the navmesh colour at its waypoints and legs %v: %v", probes, err)
	}
	if out := os.Getenv("CAIRN_SCREENSHOT"); out != "" {
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot in %s", out)
	}

	// Drag a 3×3 wall over the middle of the A* path, away from its ends.
	path := pathPoints(t, resultOf(t, got, "astar").Path)
	mid := path[len(path)/2]
	block := image.Rectangle{Min: mid.Sub(image.Pt(1, 1)), Max: mid.Add(image.Pt(2, 2))}
	if from.In(block) || to.In(block) {
		t.Fatalf("path of %d cells too short to edit its middle", len(path))
	}
	ax, ay := v.client(mid.Sub(image.Pt(1, 1)))
	bx, by := v.client(mid.Add(image.Pt(1, 1)))
	if err := chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`document.querySelector('input[name="tool"][value="wall"]').click()`),
		mouseLeft(chromedp.MousePressed, ax, ay),
		mouseLeft(chromedp.MouseMoved, (ax+bx)/2, (ay+by)/2),
		mouseLeft(chromedp.MouseMoved, bx, by),
		mouseLeft(chromedp.MouseReleased, bx, by),
	); err != nil {
		t.Fatal(err)
	}
	got, err = chromedp.Run(ctx, chromedp.Poll[routeResponse](`window.lastRoute && window.lastRoute.version === 1 && window.lastRoute`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("waiting for the route after the edit: %v", err)
	}
	edited := g.WithCells(block, false)
	after := postRoute(t, ts, from, to)
	if after.Version != 1 {
		t.Fatalf("API on version %d after one edit, want 1", after.Version)
	}
	newLen := checkResults(t, edited, after)
	if a := resultOf(t, got, "astar"); (a.Length == nil) != (newLen < 0) || a.Length != nil && math.Abs(*a.Length-newLen) > 1e-9 {
		t.Errorf("page's A* length %v after the edit, API's %v", a.Length, newLen)
	}
	if newLen >= 0 && newLen < wantLen {
		t.Errorf("A* length %v after walling the path, shorter than before (%v)", newLen, wantLen)
	}
	status, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	if strings.Contains(status, "rror") {
		t.Errorf("status line %q", status)
	}
}

// canvasHashJS hashes the canvas's pixels, to tell when the picture changes.
const canvasHashJS = `(() => {
	const c = document.getElementById("map");
	const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
	let h = 2166136261;
	for (let i = 0; i < d.length; i += 4) h = Math.imul(h ^ (d[i] | d[i + 1] << 8 | d[i + 2] << 16), 16777619);
	return h >>> 0;
})()`

// dragWall draws a wall over the cells from a to b with the Wall tool, and
// goes back to the Route tool.
func dragWall(ctx context.Context, v pageView, a, b image.Point) error {
	ax, ay := v.client(a)
	bx, by := v.client(b)
	return chromedp.Do(ctx,
		chromedp.Evaluate[chromedp.Void](`document.querySelector('input[name="tool"][value="wall"]').click()`),
		mouseLeft(chromedp.MousePressed, ax, ay),
		mouseLeft(chromedp.MouseMoved, (ax+bx)/2, (ay+by)/2),
		mouseLeft(chromedp.MouseMoved, bx, by),
		mouseLeft(chromedp.MouseReleased, bx, by),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('input[name="tool"][value="route"]').click()`),
	)
}

// TestBrowserAnimation plays a search in the page's Search mode and checks
// that it advances (the counter grows and the canvas changes), pauses,
// steps one expansion at a time, shows the API's search at the end, and
// restarts on an edit; then it runs a crowd in Crowd mode and checks that
// its agents move, stand in free cells, and go on after a wall is drawn.
// With CAIRN_SCREENSHOT=FILE.png it saves FILE-search.png and
// FILE-crowd.png.
func TestBrowserAnimation(t *testing.T) {
	ctx := newBrowser(t)
	g := loadDemo(t)
	ts := newTestServer(t, "demo.map", g)
	from, to := farPair(t, g)
	ends := fmt.Sprintf("from=%d,%d&to=%d,%d", from.X, from.Y, to.X, to.Y)
	want := getTrace(t, ts, "algo=astar&"+ends)
	defer watchConsole(t, ctx)()
	screenshot := func(name string) {
		out := os.Getenv("CAIRN_SCREENSHOT")
		if out == "" {
			return
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		out = strings.TrimSuffix(out, ".png") + "-" + name + ".png"
		if err := os.WriteFile(out, png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("screenshot in %s", out)
	}

	if err := chromedp.Do(ctx,
		chromedp.Navigate(ts.URL),
		chromedp.Poll[chromedp.Void](`document.getElementById("map").dataset.ready === "1"`),
		// 100 expansions a second: the search on the demo map plays for
		// several seconds.
		chromedp.Evaluate[chromedp.Void](`(() => {
			const s = document.getElementById("trace-speed");
			s.value = 40;
			s.dispatchEvent(new Event("input"));
			document.querySelector('input[name="mode"][value="search"]').click();
		})()`),
	); err != nil {
		t.Fatalf("loading the page: %v", err)
	}
	v, err := chromedp.Run(ctx, chromedp.Evaluate[pageView](viewJS))
	if err != nil {
		t.Fatal(err)
	}
	fx, fy := v.client(from)
	tx, ty := v.client(to)
	if err := chromedp.Do(ctx, chromedp.MouseClickXY(fx, fy), chromedp.MouseClickXY(tx, ty)); err != nil {
		t.Fatal(err)
	}
	const indexJS = `window.cairn.trace.data ? window.cairn.trace.i : -1`
	i1, err := chromedp.Run(ctx, chromedp.Poll[int](indexJS+` > 0 && window.cairn.trace.i`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("waiting for the search to play: %v", err)
	}
	h1, err := chromedp.Run(ctx, chromedp.Evaluate[uint32](canvasHashJS))
	if err != nil {
		t.Fatal(err)
	}
	// The counter grows and the picture changes as the search plays.
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`window.cairn.trace.i > %d && %s !== %d`, i1, canvasHashJS, h1),
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the animation stays at expansion %d: %v", i1, err)
	}
	counter, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("trace-counter").textContent`))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(counter, "expansion ") || !strings.Contains(counter, fmt.Sprintf("/ %d", want.Expanded)) {
		t.Errorf("counter %q, want expansion i / %d", counter, want.Expanded)
	}

	// Pause, then step: one expansion a click.
	paused, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.getElementById("trace-play").click(), window.cairn.trace.i`))
	if err != nil {
		t.Fatal(err)
	}
	stepped, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.getElementById("trace-step").click(), document.getElementById("trace-step").click(), +document.getElementById("trace-counter").dataset.index`))
	if err != nil {
		t.Fatal(err)
	}
	if stepped != paused+2 {
		t.Errorf("two steps from expansion %d went to %d", paused, stepped)
	}

	// At the end the page shows the API's search.
	got, err := chromedp.Run(ctx, chromedp.Evaluate[traceResponse](`document.getElementById("trace-end").click(), window.cairn.trace.data`))
	if err != nil {
		t.Fatal(err)
	}
	end, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.cairn.trace.i`))
	if err != nil {
		t.Fatal(err)
	}
	if got.Expanded != want.Expanded || end != want.Expanded || got.Cost == nil || *got.Cost != *want.Cost {
		t.Errorf("page's trace: %d expanded, shown %d, cost %v; API's %d expanded, cost %v", got.Expanded, end, got.Cost, want.Expanded, *want.Cost)
	}
	screenshot("search")

	// A wall across the middle of the path restarts the search on the new map.
	path := xyPoints(t, want.Path)
	mid := path[len(path)/2]
	if err := dragWall(ctx, v, mid.Sub(image.Pt(1, 1)), mid.Add(image.Pt(1, 1))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.cairn.trace.data.version === 1 && window.cairn.trace.playing && window.cairn.trace.i < window.cairn.trace.data.cells.length / 2`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the animation did not restart after the edit: %v", err)
	}
	edited := g.WithCells(image.Rectangle{Min: mid.Sub(image.Pt(1, 1)), Max: mid.Add(image.Pt(2, 2))}, false)

	// Crowd mode: 40 agents walk.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => {
		document.querySelector('input[name="mode"][value="crowd"]').click();
		document.getElementById("crowd-agents").value = 40;
		document.getElementById("crowd-start").click();
	})()`)); err != nil {
		t.Fatal(err)
	}
	first, err := chromedp.Run(ctx, chromedp.Poll[crowdResponse](`window.cairn.crowd.steps >= 2 && window.cairn.crowd.data`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("waiting for the crowd's steps: %v", err)
	}
	checkCrowd(t, edited, first, 40)
	later, err := chromedp.Run(ctx, chromedp.Poll[crowdResponse](fmt.Sprintf(`window.cairn.crowd.data.frame >= %d && window.cairn.crowd.data`, first.Frame+10),
		chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("the crowd stays at frame %d: %v", first.Frame, err)
	}
	pos := checkCrowd(t, edited, later, 40)
	moved := 0
	for i, p := range agentPoints(t, first.Pos, 40) {
		if p != pos[i] {
			moved++
		}
	}
	if moved < 20 {
		t.Errorf("%d of 40 agents moved in %d frames", moved, later.Frame-first.Frame)
	}
	// The canvas shows the agents' colour at the first agent.
	dotJS := `(() => {
		const d = window.cairn.crowd.data, v = window.cairn.view;
		const ctx = document.getElementById("map").getContext("2d");
		const p = ctx.getImageData(Math.floor((v.ox + d.pos[0] * v.scale) * v.dpr), Math.floor((v.oy + d.pos[1] * v.scale) * v.dpr), 1, 1).data;
		return p[0] === 0xe6 && p[1] === 0x55 && p[2] === 0x0d;
	})()`
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](dotJS, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Errorf("the canvas lacks the agents' colour where the first agent stands: %v", err)
	}
	screenshot("crowd")

	// A wall drawn over agent 0 reaches the crowd: the agent steps out of
	// it, and the agents go on. The crowd is paused for the drawing, but a
	// step in flight may still move the agent half a cell: the wall covers
	// the cells within two of its cell.
	paused0, err := chromedp.Run(ctx, chromedp.Evaluate[crowdResponse](`document.getElementById("crowd-pause").click(), window.cairn.crowd.data`))
	if err != nil {
		t.Fatal(err)
	}
	c := agent.CellOf(agentPoints(t, paused0.Pos, 40)[0])
	box := image.Rectangle{Min: c.Sub(image.Pt(2, 2)), Max: c.Add(image.Pt(3, 3))}.Intersect(g.Bounds())
	if err := dragWall(ctx, v, box.Min, box.Max.Sub(image.Pt(1, 1))); err != nil {
		t.Fatal(err)
	}
	edited = edited.WithCells(box, false)
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`window.cairn.map.version === 2`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the wall over agent 0 did not make version 2 of the map: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`document.getElementById("crowd-pause").click()`)); err != nil {
		t.Fatal(err)
	}
	after, err := chromedp.Run(ctx, chromedp.Poll[crowdResponse](`window.cairn.crowd.data.version === 2 && window.cairn.crowd.data`, chromedp.WithPollingTimeout(10*time.Second)))
	if err != nil {
		t.Fatalf("the crowd is not on the map's version 2 after the wall: %v", err)
	}
	checkCrowd(t, edited, after, 40)
	if after.Relocated == 0 {
		t.Errorf("a wall drawn over agent 0 moved no agent: %+v", after.crowdCounts)
	}
	status, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	if strings.Contains(status, "rror") {
		t.Errorf("status line %q", status)
	}
}
