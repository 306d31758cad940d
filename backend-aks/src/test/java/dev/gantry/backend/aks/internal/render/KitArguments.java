package dev.gantry.backend.aks.internal.render;

import dev.gantry.tck.BackendConformanceTest;
import java.util.List;

/** The conformance kit's hostile arguments, for the golden manifest that must carry each verbatim. */
abstract class KitArguments extends BackendConformanceTest {
    static final List<String> HOSTILE = HOSTILE_ARGUMENTS;
}
