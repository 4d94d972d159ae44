// Package rows holds what every part of the chat screen is drawn into: immutable runs of
// screen rows (Lines) and their Builder, the wrapping of plain and styled text to a width in
// cells, the SGR helpers (escape lengths, closing a style a row leaves open, inks compiled
// from lipgloss styles), and the incremental wrap of a growing plain text (IncWrap).
//
// A run either holds its rows or reads them from a Source that draws them when first read (a
// markdown document's pages); whoever reads a run cannot tell which. A row read once never
// changes, so a run may be shared by every cache that holds it.
package rows
