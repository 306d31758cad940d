/**
 * The backend conformance kit. A backend's test class extends {@link dev.gantry.tck.BackendConformanceTest} and
 * returns a {@link dev.gantry.tck.BackendFixture} that creates the backend and knows how to evict a job in its test
 * environment; {@link dev.gantry.tck.TckContext} is the context the backend is created with. The cases are grouped by
 * concern, one class each ({@code LogCases}, {@code IdempotencyAndRestartCases}, ...), which
 * {@code BackendConformanceTest} runs as nested classes against one backend instance.
 */
package dev.gantry.tck;
