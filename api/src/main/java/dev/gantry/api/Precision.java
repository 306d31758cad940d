package dev.gantry.api;

/** Numeric precision of a model's weights, which sets the bytes per parameter. Specs spell the constants in lower case. */
public enum Precision {
    FP32(4),
    TF32(4),
    FP16(2),
    BF16(2),
    FP8(1),
    INT8(1),
    INT4(0.5);

    private final double bytesPerParameter;

    Precision(double bytesPerParameter) {
        this.bytesPerParameter = bytesPerParameter;
    }

    /** Bytes one parameter takes in this precision. */
    public double bytesPerParameter() {
        return bytesPerParameter;
    }
}
