package dev.gantry.api;

/** Numeric precision of a model's weights, which sets the bytes per parameter. Specs spell the constants in lower case. */
public enum Precision {
    /** 32-bit floating point: 4 bytes per parameter. */
    FP32(4),
    /** TensorFloat-32, stored as 32-bit floats: 4 bytes per parameter. */
    TF32(4),
    /** 16-bit floating point: 2 bytes per parameter. */
    FP16(2),
    /** bfloat16: 2 bytes per parameter. */
    BF16(2),
    /** 8-bit floating point (Hopper and later): 1 byte per parameter. */
    FP8(1),
    /** 8-bit integer quantization: 1 byte per parameter. */
    INT8(1),
    /** 4-bit integer quantization: half a byte per parameter. */
    INT4(0.5);

    private final double bytesPerParameter;

    Precision(double bytesPerParameter) {
        this.bytesPerParameter = bytesPerParameter;
    }

    /**
     * The memory one parameter takes.
     *
     * @return bytes per parameter in this precision, e.g. 2 for {@link #BF16}
     */
    public double bytesPerParameter() {
        return bytesPerParameter;
    }
}
