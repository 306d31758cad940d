package dev.gantry.cli;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;

/** A verb whose place in the tree is fixed but whose capability arrives in a later version: it says so plainly. */
abstract class NotYetCommand extends Verb {
    abstract String what();

    @Override
    public Integer call() {
        throw new GantryException(ErrorCode.USAGE, "'gantry " + what() + "' is not available in this version of Gantry");
    }
}
