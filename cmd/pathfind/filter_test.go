package main

import (
	"strings"
	"testing"
)

// lake7 has a swamp band and a water band between the left and right
// shores; the row between them is a wall.
const lake7 = `type octile
height 3
width 7
map
..SSS..
..@@@..
..WWW..
`

// TestRouteFilter routes a walker, a swamp-averse walker and a boat.
func TestRouteFilter(t *testing.T) {
	m := writeFile(t, t.TempDir(), "lake.map", lake7)
	for _, tc := range []struct {
		filter, status, cost string
	}{
		{"", "found", "6.82843"},
		{"S=3", "found", "12.82843"},
		{"S=x", "unreachable", "-"},
		{"S=x,W=1", "found", "6.82843"},
	} {
		args := []string{"route", "-map", m, "-from", "0,1", "-to", "6,1", "-path"}
		if tc.filter != "" {
			args = append(args, "-filter", tc.filter)
		}
		out, errOut, code := pathfind(t, args...)
		if code != 0 {
			t.Fatalf("-filter %q: exit %d: %s", tc.filter, code, errOut)
		}
		if got := field(t, out, "status"); got != tc.status {
			t.Errorf("-filter %q: status %s, want %s", tc.filter, got, tc.status)
		}
		if got := field(t, out, "cost"); got != tc.cost {
			t.Errorf("-filter %q: cost %s, want %s", tc.filter, got, tc.cost)
		}
		if tc.filter == "S=x,W=1" && !strings.Contains(out, "3,2") {
			t.Errorf("the boat's path does not cross the water: %s", out)
		}
	}
	for _, args := range [][]string{
		{"-filter", "S"},
		{"-filter", "Q=2"},
		{"-filter", "S=-1"},
		{"-filter", "300=2"},
		{"-filter", "S=2", "-algo", "hpa"},
		{"-filter", "S=2", "-size", "2"},
	} {
		all := append([]string{"route", "-map", m, "-from", "0,1", "-to", "6,1"}, args...)
		if _, errOut, code := pathfind(t, all...); code != 2 || !strings.HasPrefix(errOut, "pathfind: ") {
			t.Errorf("%v: exit %d, %q; want a usage error", args, code, errOut)
		}
	}
	if _, errOut, code := pathfind(t, "route", "-map", m, "-from", "3,2", "-to", "6,1", "-filter", "S=2"); code != 1 || !strings.Contains(errOut, "filter") {
		t.Errorf("a start in water for a walker: exit %d, %q; want an error naming the filter", code, errOut)
	}
}
