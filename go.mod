module github.com/cairn-nav/cairn

go 1.26

require gonum.org/v1/gonum v0.17.0
