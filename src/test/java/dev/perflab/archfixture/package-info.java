/**
 * Fixtures of {@code ArchitectureTest}: two small apps laid out like perflab, {@code good} keeping every dependency
 * rule and {@code bad} breaking each once. Plain classes (no Spring stereotype; a condition alone registers nothing)
 * under {@code src/test}: the app's own check imports no test class, and no component scan registers them.
 */
package dev.perflab.archfixture;
