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
		{"-filter", "S=2", "-algo", "jps"},
		{"-filter", "S=2", "-algo", "hpa", "-smooth"},
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

// swamp30 is a street of swamp between two ground streets round it, with
// water on the far one.
const swamp30 = `type octile
height 7
width 30
map
..............................
.@@@@@@@@@@@@@@@@@@@@@@@@@@@@.
.@@@@@@@@@@@@@@@@@@@@@@@@@@@@.
.SSSSSSSSSSSSSSSSSSSSSSSSSSSS.
.@@@@@@@@@@@@@@@@@@@@@@@@@@@@.
.@@@@@@@@@@@@@@@@@@@@@@@@@@@@.
......................WWWW....
`

// TestRouteMeshFilter routes on the navmesh with filters: the exact
// search keeps out of excluded areas, the corridor search weighs them, and
// every answer is checked by the command against the cells the filter lets
// through.
func TestRouteMeshFilter(t *testing.T) {
	m := writeFile(t, t.TempDir(), "swamp.map", swamp30)
	for _, tc := range []struct {
		algo, filter, cost string
	}{
		{"navmesh", "", "29.00000"},
		{"navmesh", "S=x", "33.09902"},
		{"corridor", "S=x", "33.09902"},
		{"corridor", "S=1.2", "29.00000"},
		{"corridor", "S=3", "33.09902"},
	} {
		args := []string{"route", "-map", m, "-from", "0,3", "-to", "29,3", "-algo", tc.algo, "-path"}
		if tc.filter != "" {
			args = append(args, "-filter", tc.filter)
		}
		out, errOut, code := pathfind(t, args...)
		if code != 0 {
			t.Fatalf("%s -filter %q: exit %d: %s", tc.algo, tc.filter, code, errOut)
		}
		if got := field(t, out, "cost"); got != tc.cost {
			t.Errorf("%s -filter %q: cost %s, want %s", tc.algo, tc.filter, got, tc.cost)
		}
	}
	for _, args := range [][]string{
		{"-algo", "navmesh", "-filter", "S=3"},
		{"-algo", "navmesh", "-filter", "S=x", "-radius", "0.3"},
	} {
		all := append([]string{"route", "-map", m, "-from", "0,3", "-to", "29,3"}, args...)
		if _, errOut, code := pathfind(t, all...); code != 2 || !strings.HasPrefix(errOut, "pathfind: ") {
			t.Errorf("%v: exit %d, %q; want a usage error", args, code, errOut)
		}
	}
	// A boat's filter cannot open the water of a mesh; an end in an
	// excluded area is an error.
	for _, args := range [][]string{
		{"-from", "0,3", "-to", "29,3", "-algo", "corridor", "-filter", "W=1"},
		{"-from", "5,3", "-to", "29,3", "-algo", "navmesh", "-filter", "S=x"},
	} {
		all := append([]string{"route", "-map", m}, args...)
		if _, errOut, code := pathfind(t, all...); code != 1 || !strings.Contains(errOut, "area") {
			t.Errorf("%v: exit %d, %q; want an error naming the area", args, code, errOut)
		}
	}
}

// TestRouteClassFilter routes HPA* for agent classes: a filter, and a
// size with it; the command checks each path on the map by the filter's
// and the footprint's rules and prints the class's exact optimum.
func TestRouteClassFilter(t *testing.T) {
	m := writeFile(t, t.TempDir(), "swamp.map", swamp30)
	for _, tc := range []struct {
		filter, size, cost string
	}{
		{"S=3", "1", "35.00000"},
		{"S=1.2", "1", "34.60000"},
		{"S=x", "1", "35.00000"},
	} {
		out, errOut, code := pathfind(t, "route", "-map", m, "-from", "0,3", "-to", "29,3", "-algo", "hpa", "-filter", tc.filter, "-size", tc.size, "-path")
		if code != 0 {
			t.Fatalf("-filter %q: exit %d: %s", tc.filter, code, errOut)
		}
		if got := field(t, out, "cost"); got != tc.cost {
			t.Errorf("-filter %q: cost %s, want %s", tc.filter, got, tc.cost)
		}
		if got := field(t, out, "optimal"); got != tc.cost {
			t.Errorf("-filter %q: optimal %s, want %s", tc.filter, got, tc.cost)
		}
	}
	// A 2×2 unit does not fit the one-cell streets.
	if _, errOut, code := pathfind(t, "route", "-map", m, "-from", "0,3", "-to", "29,3", "-algo", "hpa", "-filter", "S=3", "-size", "2"); code != 1 || !strings.Contains(errOut, "size 2") {
		t.Errorf("a 2×2 unit in a one-cell street: exit %d, %q", code, errOut)
	}
	for _, args := range [][]string{
		{"-algo", "hpa", "-filter", "S=3", "-smooth"},
		{"-algo", "hpa", "-filter", "S=0.5"},
	} {
		all := append([]string{"route", "-map", m, "-from", "0,3", "-to", "29,3"}, args...)
		if _, errOut, code := pathfind(t, all...); code == 0 || !strings.HasPrefix(errOut, "pathfind: ") {
			t.Errorf("%v: exit %d, %q; want an error", args, code, errOut)
		}
	}
}
