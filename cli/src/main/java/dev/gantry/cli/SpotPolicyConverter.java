package dev.gantry.cli;

import dev.gantry.api.SpotPolicy;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Accepts never, allowed and preferred. */
final class SpotPolicyConverter implements ITypeConverter<SpotPolicy> {
    @Override
    public SpotPolicy convert(String value) {
        try {
            return SpotPolicy.valueOf(value.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new TypeConversionException("must be never, allowed or preferred, got '" + value + "'");
        }
    }
}
