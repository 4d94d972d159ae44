// Package layers holds no code: its test pins the import rules of docs/architecture.md,
// Layers, by asking the go command what each package links.
package layers
