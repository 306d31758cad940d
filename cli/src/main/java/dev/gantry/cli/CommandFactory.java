package dev.gantry.cli;

import picocli.CommandLine;

/** Gives every subcommand the root, so they share global options and one Gantry instance. */
final class CommandFactory implements CommandLine.IFactory {
    private final GantryCommand root;
    private final CommandLine.IFactory fallback = CommandLine.defaultFactory();

    CommandFactory(GantryCommand root) {
        this.root = root;
    }

    @Override
    public <K> K create(Class<K> type) throws Exception {
        if (Verb.class.isAssignableFrom(type)) {
            K verb = fallback.create(type);
            ((Verb) verb).root = root;
            return verb;
        }
        return fallback.create(type);
    }
}
