package dev.gantry.cli;

import picocli.CommandLine.Option;

/** The {@code --output table|json} option every verb takes. */
public final class OutputOption {
    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            converter = OutputFormatConverter.class,
            description = "Output format: table or json (default: ${DEFAULT-VALUE}).")
    OutputFormat format = OutputFormat.TABLE;

    public boolean json() {
        return format == OutputFormat.JSON;
    }
}
