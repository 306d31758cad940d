package dev.gantry.core.violating;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** Violates coreOnlyDecides: core opening the state database itself instead of leaving it to the runs module. */
final class CoreOpeningADatabase {
    Connection open() throws SQLException {
        return DriverManager.getConnection("jdbc:sqlite::memory:");
    }
}
