package dev.gantry.images;

import dev.gantry.api.ImageRef;
import dev.gantry.api.Reason;
import java.util.List;
import java.util.Objects;

/** The image chosen for a plan, the reasons (each naming its rule) and any compatibility warnings. */
public record ImageChoice(ImageRef image, List<Reason> reasons, List<String> warnings) {
    public ImageChoice {
        Objects.requireNonNull(image, "image");
        reasons = List.copyOf(reasons);
        warnings = List.copyOf(warnings);
    }
}
