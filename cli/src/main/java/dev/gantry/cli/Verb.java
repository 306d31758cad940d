package dev.gantry.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;

/** A subcommand: returns its exit code; reaches Gantry and the streams through the root. */
abstract class Verb implements Callable<Integer> {
    GantryCommand root;

    @Mixin
    OutputOption output;

    CliEnvironment env() {
        return root.env();
    }
}
