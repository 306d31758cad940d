package dev.gantry.api;

/** The model's class in Azure's guidance, which decides GPU or CPU hardware. Specs spell the constants in lower case. */
public enum ModelClass {
    /** Generative models (LLMs, diffusion): GPU. */
    GENERATIVE,
    /** Non-generative, complex models (deep vision, speech): GPU. */
    COMPLEX,
    /** Non-generative, small models (classic ML): CPU. */
    SMALL;
}
