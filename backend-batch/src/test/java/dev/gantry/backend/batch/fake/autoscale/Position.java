package dev.gantry.backend.batch.fake.autoscale;

/** Where in the formula text: 1-based line and column, printed as Batch prints them. */
record Position(int line, int column) {
    @Override
    public String toString() {
        return "Line " + line + ", Col " + column;
    }
}
