package dev.gantry.backend.batch.fake.autoscale;

import static dev.gantry.backend.batch.fake.autoscale.ValueType.DEALLOCATION_OPTION;
import static dev.gantry.backend.batch.fake.autoscale.ValueType.DOUBLE;
import static dev.gantry.backend.batch.fake.autoscale.ValueType.INTERVAL;
import static dev.gantry.backend.batch.fake.autoscale.ValueType.VECTOR;

import dev.gantry.backend.batch.fake.autoscale.FormulaTokens.Kind;
import dev.gantry.backend.batch.fake.autoscale.FormulaTokens.Token;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses and type-checks a formula: statements {@code name = expression;} with C's precedence (ternary, {@code ||},
 * {@code &&}, equality, relational, additive, multiplicative, unary). Every refusal names its line and column, what
 * was found, and what the subset allows, so that a formula outside it fails where it is set, as Batch refuses a bad
 * one at pool add and enable-autoscale.
 */
final class FormulaParser {
    static final int MAX_LENGTH = 8192;
    static final int MAX_STATEMENTS = 100;

    private final List<Token> tokens;
    private final Map<String, ValueType> assigned = new HashMap<>();
    private int next;

    private FormulaParser(List<Token> tokens) {
        this.tokens = tokens;
    }

    static List<Statement> parse(String formula) {
        if (formula.length() > MAX_LENGTH) {
            throw FormulaException.tooLong(formula.length(), MAX_LENGTH);
        }
        return new FormulaParser(FormulaTokens.of(formula)).statements();
    }

    private List<Statement> statements() {
        List<Statement> statements = new ArrayList<>();
        while (true) {
            while (peek().is(";")) {
                next++;
            }
            if (peek().kind() == Kind.END) {
                break;
            }
            statements.add(statement());
            if (statements.size() > MAX_STATEMENTS) {
                throw FormulaException.syntax(statements.get(MAX_STATEMENTS).at(), "the formula has more than "
                        + MAX_STATEMENTS + " statements; at most " + MAX_STATEMENTS + " are allowed");
            }
            Token end = peek();
            if (!end.is(";") && end.kind() != Kind.END) {
                throw FormulaException.syntax(end.at(), "expected ';' after the statement, found " + end.shown());
            }
        }
        if (statements.isEmpty()) {
            throw FormulaException.syntax(peek().at(), "the formula has no statement; it needs at least one, such as"
                    + " $TargetDedicatedNodes = 0;");
        }
        return statements;
    }

    private Statement statement() {
        Token name = take();
        if (name.kind() != Kind.NAME) {
            throw FormulaException.syntax(name.at(), "a statement starts with the name of the variable it assigns,"
                    + " found " + name.shown());
        }
        requireAssignable(name);
        Token equals = take();
        if (!equals.is("=")) {
            throw FormulaException.syntax(equals.at(), "expected '=' after " + name.text() + ", found "
                    + equals.shown());
        }
        Expr value = expression();
        String variable = name.text();
        if (variable.equals(ServiceVariables.DEALLOCATION)) {
            if (value.type() != DEALLOCATION_OPTION) {
                throw FormulaException.syntax(value.at(), variable + " takes one of "
                        + String.join(", ", ServiceVariables.DEALLOCATION_OPTIONS) + ", found a " + value.type());
            }
        } else if (ServiceVariables.isTarget(variable)) {
            if (value.type() != DOUBLE) {
                throw FormulaException.syntax(value.at(), variable + " takes a double (a number of nodes), found a "
                        + value.type());
            }
        } else if (value.type() == DEALLOCATION_OPTION) {
            throw FormulaException.syntax(value.at(), "the deallocation options ("
                    + String.join(", ", ServiceVariables.DEALLOCATION_OPTIONS) + ") can only be assigned to "
                    + ServiceVariables.DEALLOCATION);
        } else {
            assigned.put(variable, value.type());
        }
        return new Statement(name.at(), variable, value);
    }

    private void requireAssignable(Token name) {
        String variable = name.text();
        if (ServiceVariables.isReadOnly(variable)) {
            throw FormulaException.syntax(name.at(), "cannot assign " + variable + ": it is a read-only"
                    + " service-defined variable; the formula sets " + ServiceVariables.TARGET_DEDICATED + ", "
                    + ServiceVariables.TARGET_LOW_PRIORITY + ", " + ServiceVariables.DEALLOCATION
                    + " and variables of its own");
        }
        if (ServiceVariables.isReserved(variable)) {
            throw FormulaException.syntax(name.at(), "cannot assign " + variable + ": it is a name of the formula"
                    + " language (a function, a time interval or a deallocation option)");
        }
    }

    private Expr expression() {
        Expr condition = or();
        Token question = peek();
        if (!question.is("?")) {
            return condition;
        }
        next++;
        requireType(condition, DOUBLE, "the condition of '?:'");
        Expr then = expression();
        Token colon = take();
        if (!colon.is(":")) {
            throw FormulaException.syntax(colon.at(), "expected ':' of the '?:' begun at " + question.at()
                    + ", found " + colon.shown());
        }
        Expr otherwise = expression();
        if (then.type() != otherwise.type()) {
            throw FormulaException.syntax(question.at(), "the branches of '?:' give a " + then.type() + " and a "
                    + otherwise.type() + "; both must give the same type");
        }
        return new Expr.Conditional(question.at(), condition, then, otherwise, then.type());
    }

    private Expr or() {
        Expr left = and();
        while (peek().is("||")) {
            left = binary(left, take(), and());
        }
        return left;
    }

    private Expr and() {
        Expr left = equality();
        while (peek().is("&&")) {
            left = binary(left, take(), equality());
        }
        return left;
    }

    private Expr equality() {
        Expr left = relational();
        while (peek().is("==") || peek().is("!=")) {
            left = binary(left, take(), relational());
        }
        return left;
    }

    private Expr relational() {
        Expr left = additive();
        while (peek().is("<") || peek().is("<=") || peek().is(">") || peek().is(">=")) {
            left = binary(left, take(), additive());
        }
        return left;
    }

    private Expr additive() {
        Expr left = multiplicative();
        while (peek().is("+") || peek().is("-")) {
            left = binary(left, take(), multiplicative());
        }
        return left;
    }

    private Expr multiplicative() {
        Expr left = unary();
        while (peek().is("*") || peek().is("/")) {
            left = binary(left, take(), unary());
        }
        return left;
    }

    private Expr binary(Expr left, Token operator, Expr right) {
        return new Expr.Binary(operator.at(), operator.text(), left, right,
                Operators.binaryType(operator.at(), operator.text(), left.type(), right.type()));
    }

    private Expr unary() {
        Token operator = peek();
        if (operator.is("-") || operator.is("!")) {
            next++;
            Expr operand = unary();
            return new Expr.Unary(operator.at(), operator.text(), operand,
                    Operators.unaryType(operator.at(), operator.text(), operand.type()));
        }
        return primary();
    }

    private Expr primary() {
        Token token = take();
        if (token.kind() == Kind.NUMBER) {
            return Expr.Constant.number(token.at(), Double.parseDouble(token.text()));
        }
        if (token.is("(")) {
            Expr inner = expression();
            Token close = take();
            if (!close.is(")")) {
                throw FormulaException.syntax(close.at(), "expected ')' closing the '(' at " + token.at()
                        + ", found " + close.shown());
            }
            return inner;
        }
        if (token.kind() != Kind.NAME) {
            throw FormulaException.syntax(token.at(), "expected a number, a variable, a function call or '(',"
                    + " found " + token.shown());
        }
        if (peek().is("(")) {
            return function(token);
        }
        if (peek().is(".")) {
            return method(token);
        }
        return name(token);
    }

    private Expr name(Token token) {
        String name = token.text();
        if (name.startsWith(ServiceVariables.INTERVAL_PREFIX)) {
            return interval(token);
        }
        if (ServiceVariables.DEALLOCATION_OPTIONS.contains(name)) {
            return Expr.Constant.deallocation(token.at(), name);
        }
        if (ServiceVariables.isSampled(name)) {
            throw FormulaException.syntax(token.at(), name + " is a sample series, not a number: read it with "
                    + name + ".GetSample(...) or " + name + ".GetSamplePercent(...)");
        }
        if (ServiceVariables.isScalar(name)) {
            return new Expr.ServiceNumber(token.at(), name);
        }
        if (name.equals(ServiceVariables.DEALLOCATION)) {
            throw FormulaException.syntax(token.at(), name + " can only be assigned, not read");
        }
        ValueType type = assigned.get(name);
        if (type == null) {
            throw FormulaException.syntax(token.at(), "'" + name + "' is used before it is assigned"
                    + (name.startsWith("$") ? " and is not a service-defined variable (those are "
                    + String.join(", ", ServiceVariables.SAMPLED) + ", " + ServiceVariables.CURRENT_DEDICATED + ", "
                    + ServiceVariables.CURRENT_LOW_PRIORITY + " and the targets)" : ""));
        }
        return new Expr.Variable(token.at(), name, type);
    }

    private Expr interval(Token token) {
        return switch (token.text()) {
            case "TimeInterval_Zero" -> Expr.Constant.interval(token.at(), Duration.ZERO);
            case "TimeInterval_Second" -> Expr.Constant.interval(token.at(), Duration.ofSeconds(1));
            case "TimeInterval_Minute" -> Expr.Constant.interval(token.at(), Duration.ofMinutes(1));
            case "TimeInterval_Hour" -> Expr.Constant.interval(token.at(), Duration.ofHours(1));
            case "TimeInterval_Day" -> Expr.Constant.interval(token.at(), Duration.ofDays(1));
            case "TimeInterval_Week" -> Expr.Constant.interval(token.at(), Duration.ofDays(7));
            default -> throw FormulaException.syntax(token.at(), token.text() + " is not in the fake's subset;"
                    + " allowed intervals: " + String.join(", ", ServiceVariables.INTERVALS));
        };
    }

    private Expr function(Token name) {
        String function = name.text();
        if (!ServiceVariables.FUNCTIONS.contains(function)) {
            throw FormulaException.syntax(name.at(), (ServiceVariables.FUNCTIONS_OUTSIDE_SUBSET.contains(function)
                    ? "function " + function + "() is outside the fake's subset"
                    : "unknown function " + function + "()") + "; allowed functions: "
                    + String.join(", ", ServiceVariables.FUNCTIONS));
        }
        List<Expr> arguments = arguments();
        if (arguments.isEmpty()) {
            throw FormulaException.syntax(name.at(), function + "() needs at least one double or doubleVec");
        }
        for (Expr argument : arguments) {
            if (argument.type() != DOUBLE && argument.type() != VECTOR) {
                throw FormulaException.syntax(argument.at(), function + "() takes doubles and doubleVecs, found a "
                        + argument.type());
            }
        }
        return new Expr.Aggregate(name.at(), function, arguments);
    }

    private Expr method(Token receiver) {
        next++;
        Token method = take();
        String variable = receiver.text();
        if (!ServiceVariables.isSampled(variable)) {
            throw FormulaException.syntax(receiver.at(), "only the sampled service-defined variables have methods ("
                    + String.join(", ", ServiceVariables.SAMPLED) + "); " + variable + " is not one of them");
        }
        if (method.kind() != Kind.NAME || !peek().is("(")) {
            throw FormulaException.syntax(method.at(), "expected a method call after '" + variable + ".', found "
                    + method.shown());
        }
        String name = method.text();
        if (name.equals(ServiceVariables.GET_SAMPLE)) {
            return new Expr.SampleCall(method.at(), variable, name, getSampleArguments(method), VECTOR);
        }
        if (name.equals(ServiceVariables.GET_SAMPLE_PERCENT)) {
            List<Expr> arguments = arguments();
            if (arguments.isEmpty() || arguments.size() > 2
                    || arguments.stream().anyMatch(a -> a.type() != INTERVAL)) {
                throw FormulaException.syntax(method.at(), "GetSamplePercent takes (timeinterval start"
                        + " [, timeinterval end]), found (" + types(arguments) + ")");
            }
            return new Expr.SampleCall(method.at(), variable, name, arguments, DOUBLE);
        }
        throw FormulaException.syntax(method.at(), (ServiceVariables.METHODS_OUTSIDE_SUBSET.contains(name)
                ? "method " + name + "() is outside the fake's subset" : "unknown method " + name + "()")
                + "; allowed methods: " + ServiceVariables.GET_SAMPLE + ", " + ServiceVariables.GET_SAMPLE_PERCENT);
    }

    /** {@code (double count)}, {@code (interval [, double percent])} or {@code (interval, interval [, percent])}. */
    private List<Expr> getSampleArguments(Token method) {
        List<Expr> arguments = arguments();
        List<ValueType> types = arguments.stream().map(Expr::type).toList();
        boolean valid = types.equals(List.of(DOUBLE)) || types.equals(List.of(INTERVAL))
                || types.equals(List.of(INTERVAL, DOUBLE)) || types.equals(List.of(INTERVAL, INTERVAL))
                || types.equals(List.of(INTERVAL, INTERVAL, DOUBLE));
        if (!valid) {
            throw FormulaException.syntax(method.at(), "GetSample takes (double count), (timeinterval start"
                    + " [, double samplePercent]) or (timeinterval start, timeinterval end [, double samplePercent]),"
                    + " found (" + types(arguments) + ")");
        }
        return arguments;
    }

    private List<Expr> arguments() {
        Token open = take();
        List<Expr> arguments = new ArrayList<>();
        if (peek().is(")")) {
            next++;
            return arguments;
        }
        while (true) {
            arguments.add(expression());
            Token separator = take();
            if (separator.is(")")) {
                return arguments;
            }
            if (!separator.is(",")) {
                throw FormulaException.syntax(separator.at(), "expected ',' or ')' in the arguments begun at "
                        + open.at() + ", found " + separator.shown());
            }
        }
    }

    private void requireType(Expr expr, ValueType type, String what) {
        if (expr.type() != type) {
            throw FormulaException.syntax(expr.at(), what + " must be a " + type + ", found a " + expr.type());
        }
    }

    private static String types(List<Expr> arguments) {
        return String.join(", ", arguments.stream().map(a -> a.type().toString()).toList());
    }

    private Token peek() {
        return tokens.get(next);
    }

    private Token take() {
        Token token = tokens.get(next);
        if (token.kind() != Kind.END) {
            next++;
        }
        return token;
    }
}
