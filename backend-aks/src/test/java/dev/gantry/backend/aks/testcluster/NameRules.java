package dev.gantry.backend.aks.testcluster;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The API server's string rules, with its own messages: k8s.io/apimachinery v0.32's {@code pkg/util/validation}
 * ({@code IsDNS1123Label}, {@code IsDNS1123Subdomain}, {@code IsDNS1035Label}, {@code IsQualifiedName},
 * {@code IsValidLabelValue}, {@code IsRelaxedEnvVarName}, {@code IsConfigMapKey}, {@code IsValidPortNum}). Each
 * returns the messages of what is wrong, none when the value is valid.
 */
final class NameRules {
    private static final String QUALIFIED_NAME_FMT = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
    private static final String QUALIFIED_NAME_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and "
            + "must start and end with an alphanumeric character";
    private static final Pattern QUALIFIED_NAME = Pattern.compile(QUALIFIED_NAME_FMT);
    private static final String LABEL_VALUE_FMT = "(" + QUALIFIED_NAME_FMT + ")?";
    private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist of alphanumeric "
            + "characters, '-', '_' or '.', and must start and end with an alphanumeric character";
    private static final Pattern LABEL_VALUE = Pattern.compile(LABEL_VALUE_FMT);
    private static final String DNS1123_LABEL_FMT = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1123_LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case alphanumeric "
            + "characters or '-', and must start and end with an alphanumeric character";
    private static final Pattern DNS1123_LABEL = Pattern.compile(DNS1123_LABEL_FMT);
    private static final String DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + "(\\." + DNS1123_LABEL_FMT + ")*";
    private static final String DNS1123_SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case "
            + "alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
    private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(DNS1123_SUBDOMAIN_FMT);
    private static final String DNS1035_LABEL_FMT = "[a-z]([-a-z0-9]*[a-z0-9])?";
    private static final String DNS1035_LABEL_MSG = "a DNS-1035 label must consist of lower case alphanumeric "
            + "characters or '-', start with an alphabetic character, and end with an alphanumeric character";
    private static final Pattern DNS1035_LABEL = Pattern.compile(DNS1035_LABEL_FMT);
    private static final String CONFIG_MAP_KEY_FMT = "[-._a-zA-Z0-9]+";
    private static final String CONFIG_MAP_KEY_MSG = "a valid config key must consist of alphanumeric characters, "
            + "'-', '_' or '.'";
    private static final Pattern CONFIG_MAP_KEY = Pattern.compile(CONFIG_MAP_KEY_FMT);
    /** 1.32's rule: the RelaxedEnvironmentVariableValidation gate is beta there, and on by default. */
    private static final String RELAXED_ENV_NAME_MSG = "a valid environment variable name must consist only of "
            + "printable ASCII characters other than '='";

    private NameRules() {
    }

    static List<String> dns1123Label(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > 63) {
            errors.add(maxLength(63));
        }
        if (!DNS1123_LABEL.matcher(value).matches()) {
            errors.add(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, "my-name", "123-abc"));
        }
        return errors;
    }

    static List<String> dns1123Subdomain(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > 253) {
            errors.add(maxLength(253));
        }
        if (!DNS1123_SUBDOMAIN.matcher(value).matches()) {
            errors.add(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, "example.com"));
        }
        return errors;
    }

    static List<String> dns1035Label(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > 63) {
            errors.add(maxLength(63));
        }
        if (!DNS1035_LABEL.matcher(value).matches()) {
            errors.add(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, "my-name", "abc-123"));
        }
        return errors;
    }

    static List<String> qualifiedName(String value) {
        List<String> errors = new ArrayList<>();
        String[] parts = value.split("/", -1);
        String name;
        if (parts.length == 1) {
            name = parts[0];
        } else if (parts.length == 2) {
            String prefix = parts[0];
            name = parts[1];
            if (prefix.isEmpty()) {
                errors.add("prefix part must be non-empty");
            } else {
                dns1123Subdomain(prefix).forEach(message -> errors.add("prefix part " + message));
            }
        } else {
            errors.add("a qualified name " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name",
                    "123-abc") + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
            return errors;
        }
        if (name.isEmpty()) {
            errors.add("name part must be non-empty");
        } else if (name.length() > 63) {
            errors.add("name part " + maxLength(63));
        }
        if (!QUALIFIED_NAME.matcher(name).matches()) {
            errors.add("name part " + regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, "MyName", "my.name",
                    "123-abc"));
        }
        return errors;
    }

    static List<String> labelValue(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > 63) {
            errors.add(maxLength(63));
        }
        if (!LABEL_VALUE.matcher(value).matches()) {
            errors.add(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, "MyValue", "my_value", "12345"));
        }
        return errors;
    }

    static List<String> relaxedEnvVarName(String value) {
        List<String> errors = new ArrayList<>();
        if (value.isEmpty()) {
            errors.add("environment variable name must be non-empty");
        }
        if (value.chars().anyMatch(c -> c < 0x20 || c > 0x7e || c == '=')) {
            errors.add(RELAXED_ENV_NAME_MSG);
        }
        return errors;
    }

    static List<String> configMapKey(String value) {
        List<String> errors = new ArrayList<>();
        if (value.length() > 253) {
            errors.add(maxLength(253));
        }
        if (!CONFIG_MAP_KEY.matcher(value).matches()) {
            errors.add(regexError(CONFIG_MAP_KEY_MSG, CONFIG_MAP_KEY_FMT, "key.name", "KEY_NAME", "key-name"));
        }
        if (value.equals(".")) {
            errors.add("must not be '.'");
        } else if (value.equals("..")) {
            errors.add("must not be '..'");
        } else if (value.startsWith("..")) {
            errors.add("must not start with '..'");
        }
        return errors;
    }

    static List<String> portNumber(long port) {
        return port >= 1 && port <= 65535 ? List.of() : List.of("must be between 1 and 65535, inclusive");
    }

    private static String maxLength(int length) {
        return "must be no more than " + length + " characters";
    }

    /** apimachinery's RegexError, its doubled space before each "or" included. */
    private static String regexError(String message, String format, String... examples) {
        StringBuilder text = new StringBuilder(message).append(" (e.g. ");
        for (int i = 0; i < examples.length; i++) {
            if (i > 0) {
                text.append(" or ");
            }
            text.append('\'').append(examples[i]).append("', ");
        }
        return text.append("regex used for validation is '").append(format).append("')").toString();
    }
}
