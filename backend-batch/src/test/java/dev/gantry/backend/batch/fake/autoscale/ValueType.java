package dev.gantry.backend.batch.fake.autoscale;

/** The types of the subset, with the names Batch's docs give them. */
enum ValueType {
    DOUBLE("double"), VECTOR("doubleVec"), INTERVAL("timeinterval"), DEALLOCATION_OPTION("deallocation option");

    private final String batchName;

    ValueType(String batchName) {
        this.batchName = batchName;
    }

    @Override
    public String toString() {
        return batchName;
    }
}
