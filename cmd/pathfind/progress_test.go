package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// forceTerminal sends progress bars to a buffer it returns, treated as a
// terminal when on, until the test ends.
func forceTerminal(t *testing.T, on bool) *bytes.Buffer {
	t.Helper()
	savedOut, savedIs := progressOut, isTerminal
	t.Cleanup(func() { progressOut, isTerminal = savedOut, savedIs })
	var buf bytes.Buffer
	progressOut = &buf
	if on {
		isTerminal = func(w io.Writer) bool { return w == &buf }
	}
	return &buf
}

func TestScenProgress(t *testing.T) {
	dir := t.TempDir()
	many, _ := demoScen(t, dir, scenProgressMin+50)
	tests := []struct {
		name     string
		terminal bool
		args     []string
		drawn    bool
	}{
		{"terminal, many scenarios", true, nil, true},
		{"not a terminal", false, nil, false},
		{"terminal, few scenarios", true, []string{"-every", "2"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bar := forceTerminal(t, tc.terminal)
			out, errOut, code := pathfind(t, append([]string{"scen", "-map", demoMap, "-scen", many, "-json"}, tc.args...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("status %d, stderr %q", code, errOut)
			}
			if !strings.HasPrefix(out, "{") || strings.Count(out, "\n") != 1 {
				t.Errorf("stdout %q, want the JSON summary alone", out)
			}
			drawn := bytes.Contains(bar.Bytes(), []byte("scenarios"))
			if drawn != tc.drawn || !tc.drawn && bar.Len() > 0 {
				t.Errorf("progress output %q, want a bar: %v", bar.String(), tc.drawn)
			}
		})
	}
}
