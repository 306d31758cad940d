package dev.gantry.api;

/** CPU architecture of a VM size or image. Specs spell the constants in lower case. */
public enum Architecture {
    X64,
    ARM64;
}
