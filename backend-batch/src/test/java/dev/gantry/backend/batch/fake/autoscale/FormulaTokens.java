package dev.gantry.backend.batch.fake.autoscale;

import java.util.ArrayList;
import java.util.List;

/** The formula's tokens: numbers, names (a leading {@code $} included), operators; {@code //} comments dropped. */
final class FormulaTokens {
    enum Kind { NUMBER, NAME, OPERATOR, END }

    record Token(Kind kind, String text, Position at) {
        boolean is(String operator) {
            return kind == Kind.OPERATOR && text.equals(operator);
        }

        /** How a message names it. */
        String shown() {
            return kind == Kind.END ? "the end of the formula" : "'" + text + "'";
        }
    }

    private static final List<String> TWO_CHARACTER_OPERATORS = List.of("<=", ">=", "==", "!=", "&&", "||");
    private static final String ONE_CHARACTER_OPERATORS = "+-*/!<>?:=;(),.";

    private final String text;
    private final List<Token> tokens = new ArrayList<>();
    private int index;
    private int line = 1;
    private int lineStart;

    private FormulaTokens(String text) {
        this.text = text;
    }

    static List<Token> of(String formula) {
        FormulaTokens lexer = new FormulaTokens(formula);
        lexer.scan();
        return lexer.tokens;
    }

    private void scan() {
        while (index < text.length()) {
            char c = text.charAt(index);
            if (c == '\n') {
                index++;
                line++;
                lineStart = index;
            } else if (Character.isWhitespace(c)) {
                index++;
            } else if (text.startsWith("//", index)) {
                while (index < text.length() && text.charAt(index) != '\n') {
                    index++;
                }
            } else if (Character.isDigit(c) || c == '.' && index + 1 < text.length()
                    && Character.isDigit(text.charAt(index + 1))) {
                number();
            } else if (c == '$' || Character.isLetter(c) || c == '_') {
                name();
            } else if (c == '"') {
                throw FormulaException.syntax(here(), "string values (as in time(\"...\")) are outside the fake's"
                        + " subset, which has numbers, sample vectors and time intervals");
            } else {
                operator(c);
            }
        }
        tokens.add(new Token(Kind.END, "", here()));
    }

    private Position here() {
        return new Position(line, index - lineStart + 1);
    }

    private void number() {
        Position at = here();
        int start = index;
        while (index < text.length() && (Character.isDigit(text.charAt(index)) || text.charAt(index) == '.')) {
            index++;
        }
        String digits = text.substring(start, index);
        if (digits.indexOf('.') != digits.lastIndexOf('.')) {
            throw FormulaException.syntax(at, "'" + digits + "' is not a number");
        }
        tokens.add(new Token(Kind.NUMBER, digits, at));
    }

    private void name() {
        Position at = here();
        int start = index;
        if (text.charAt(index) == '$') {
            index++;
            if (index == text.length() || !Character.isLetter(text.charAt(index)) && text.charAt(index) != '_') {
                throw FormulaException.syntax(at, "'$' must be followed by a variable name (a letter or '_' first)");
            }
        }
        while (index < text.length() && (Character.isLetterOrDigit(text.charAt(index))
                || text.charAt(index) == '_')) {
            index++;
        }
        tokens.add(new Token(Kind.NAME, text.substring(start, index), at));
    }

    private void operator(char c) {
        Position at = here();
        if (index + 1 < text.length() && TWO_CHARACTER_OPERATORS.contains(text.substring(index, index + 2))) {
            tokens.add(new Token(Kind.OPERATOR, text.substring(index, index + 2), at));
            index += 2;
        } else if (ONE_CHARACTER_OPERATORS.indexOf(c) >= 0) {
            tokens.add(new Token(Kind.OPERATOR, String.valueOf(c), at));
            index++;
        } else {
            throw FormulaException.syntax(at, "unexpected character '" + c + "'");
        }
    }
}
