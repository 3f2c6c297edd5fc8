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
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range errs {
			t.Errorf("page console %s", e)
		}
	}()

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
