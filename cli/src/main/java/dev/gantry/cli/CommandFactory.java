package dev.gantry.cli;

import picocli.CommandLine;

/** Gives every subcommand the root, so they share global options and one Gantry instance. */
final class CommandFactory implements CommandLine.IFactory {
    private final GantryCommand root;
    private final CommandLine.IFactory fallback = picocliFactory();

    CommandFactory(GantryCommand root) {
        this.root = root;
    }

    /**
     * picocli's default factory, without its probe for Groovy: on first use it asks the class loader for
     * {@code groovy.lang.Closure}, which no jar of ours holds, so the lookup opens every jar on the class path
     * (75 of them, about 45 ms of every command). Gantry's commands declare no Groovy closures, so the probe can
     * only ever miss; picocli's own switch turns it off. A value the user set is left as it is.
     */
    private static CommandLine.IFactory picocliFactory() {
        if (System.getProperty(NO_CLOSURES) == null) {
            System.setProperty(NO_CLOSURES, "true");
        }
        return CommandLine.defaultFactory();
    }

    private static final String NO_CLOSURES = "picocli.disable.closures";

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
