package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMapFlags routes on Tiled maps and an image from grid's test data,
// choosing the walls by layer, by property and by threshold.
func TestMapFlags(t *testing.T) {
	tiled := filepath.Join("..", "..", "grid", "testdata", "tiled")
	matches, _ := filepath.Glob(filepath.Join(tiled, "*.tmx"))
	if len(matches) == 0 {
		t.Fatalf("no .tmx file in %s", tiled)
	}
	// Every command that reads a map lists the flags.
	for _, cmd := range []string{"route", "scen", "edits", "crowd", "flow", "serve"} {
		out, _, code := pathfind(t, cmd, "-h")
		if code != 0 || !strings.Contains(out, "-layer") || !strings.Contains(out, "-threshold") {
			t.Errorf("%s -h: no map flags (exit %d)", cmd, code)
		}
	}
	if _, errOut, code := pathfind(t, "route", "-map", matches[0], "-from", "0,0", "-to", "1,1", "-threshold", "2"); code != 2 || !strings.Contains(errOut, "-threshold") {
		t.Errorf("-threshold 2: exit %d, %q", code, errOut)
	}
	// A Tiled map with two tile layers needs one of them named.
	ok := 0
	for _, m := range matches {
		for _, args := range [][]string{{}, {"-layer", "walls"}, {"-property", "collides"}} {
			all := append([]string{"route", "-map", m, "-from", "0,0", "-to", "0,0"}, args...)
			out, errOut, code := pathfind(t, all...)
			if code == 0 && strings.Contains(out, "status") {
				ok++
			} else if code == 2 || (!strings.HasPrefix(errOut, "pathfind: ") && code != 0) {
				t.Errorf("%v: exit %d, %q: want an answer or a one-line error", all, code, errOut)
			}
		}
	}
	if ok == 0 {
		t.Error("no Tiled map of grid's test data could be routed on")
	}
}
