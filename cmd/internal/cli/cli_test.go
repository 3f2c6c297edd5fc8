package cli_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-nav/cairn/cmd/internal/cli"
)

func ExampleProgram_ExitStatus() {
	p := cli.Program{Name: "tool"}
	fmt.Println(p.ExitStatus(os.Stdout, nil))
	fmt.Println(p.ExitStatus(os.Stdout, cli.Usagef("-n %d, want 1 or more", 0)))
	fmt.Println(p.ExitStatus(os.Stdout, errors.New("map.map: line 7:\n  row too short")))
	// Output:
	// 0
	// tool: -n 0, want 1 or more
	// 2
	// tool: map.map: line 7:; row too short
	// 1
}

func TestExitStatus(t *testing.T) {
	usage := cli.Usagef("bad flag")
	tests := []struct {
		name string
		p    cli.Program
		err  error
		code int
		line string
	}{
		{"nil", cli.Program{Name: "tool"}, nil, 0, ""},
		{"usage", cli.Program{Name: "tool"}, usage, 2, "tool: bad flag\n"},
		{"wrapped usage", cli.Program{Name: "tool"}, fmt.Errorf("route: %w", usage), 2, "tool: route: bad flag\n"},
		{"other", cli.Program{Name: "tool"}, errors.New("no such file"), 1, "tool: no such file\n"},
		{"lines", cli.Program{Name: "tool"}, errors.New("a\n\tb  c\n"), 1, "tool: a; b c;\n"},
		{"trimmed", cli.Program{Name: "gen", TrimPrefix: "gen: "}, errors.New("gen: size 3"), 1, "gen: size 3\n"},
		{"not trimmed", cli.Program{Name: "gen"}, errors.New("gen: size 3"), 1, "gen: gen: size 3\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var e bytes.Buffer
			if code := tc.p.ExitStatus(&e, tc.err); code != tc.code || e.String() != tc.line {
				t.Errorf("got %d and %q, want %d and %q", code, e.String(), tc.code, tc.line)
			}
		})
	}
}

func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if cli.IsTerminal(f) || cli.IsTerminal(&strings.Builder{}) {
		t.Error("a file or a buffer is a terminal")
	}
}

// TestSameFile tells one file under two names from two files, and a
// missing file from any.
func TestSameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		x, y string
		want bool
	}{
		{a, a, true}, {a, filepath.Join(dir, ".", "a"), true}, {a, b, false}, {a, filepath.Join(dir, "missing"), false},
	} {
		if got := cli.SameFile(tc.x, tc.y); got != tc.want {
			t.Errorf("SameFile(%q, %q) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
}
