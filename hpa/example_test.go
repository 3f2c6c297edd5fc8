package hpa_test

import (
	"fmt"
	"image"

	"github.com/cairn-nav/cairn/grid"
	"github.com/cairn-nav/cairn/hpa"
)

func Example() {
	// Clusters of 8×8 cells; '#' is a wall. The start and goal are two
	// clusters apart, so the query goes through the abstract graph.
	rows := []string{
		"........#...............",
		"........#...............",
		"........#.......#.......",
		"........#.......#.......",
		"................#.......",
		"........#.......#.......",
		"........#.......#.......",
		"........#.......#.......",
		"#####.######.####.......",
		"........#.......#.......",
		"........#.......#.......",
		"........#...............",
	}
	g, err := grid.FromRows(rows, grid.Options{})
	if err != nil {
		panic(err)
	}
	hg, err := hpa.Build(g, hpa.Options{ClusterSize: 8})
	if err != nil {
		panic(err)
	}
	fmt.Printf("%+v\n", hg.Stats())
	q := hpa.NewSearcher(hg)
	path, res, err := q.AppendPath(nil, image.Pt(0, 0), image.Pt(23, 11), hpa.Query{})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Status, len(path), "cells", fmt.Sprintf("cost %.4f", res.Cost))
	for _, p := range path {
		row := []byte(rows[p.Y])
		row[p.X] = '*'
		rows[p.Y] = string(row)
	}
	for _, row := range rows {
		fmt.Println(row)
	}
	// Output:
	// {Clusters:6 Entrances:6 Nodes:14 Edges:36}
	// found 26 cells cost 28.7279
	// *.......#...............
	// .*......#...............
	// ..*.....#.......#.......
	// ...*....#.......#.......
	// ....******......#.......
	// ........#.*.....#.......
	// ........#..*....#.......
	// ........#...*...#.......
	// #####.######*####.......
	// ........#...*...#.......
	// ........#....*..#.......
	// ........#.....**********
}
