/**
 * Diagrams of the game machines, drawn from their definitions: a small model
 * of states and transitions, written as DOT (and SVG through Graphviz) or
 * Mermaid, with the states a snapshot is in highlighted.
 */
export * from './model.js';
export * from './dot.js';
export * from './mermaid.js';
export * from './svg.js';
export * from './active.js';
export * from './files.js';
