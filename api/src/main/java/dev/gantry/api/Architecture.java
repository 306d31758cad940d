package dev.gantry.api;

/** CPU architecture of a VM size or image. Specs spell the constants in lower case. */
public enum Architecture {
    /** x86-64 (Intel and AMD processors); most Azure sizes. */
    X64,
    /** 64-bit Arm (Ampere Altra, Cobalt); the {@code p} sizes such as {@code Standard_D4ps_v5}. */
    ARM64;
}
